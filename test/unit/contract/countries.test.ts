import {
  ADDED_TO_HIGH_RISK,
  PROHIBITED_IMMEDIATELY,
  PROHIBITED_TO_HIGH_RISK,
  REMOVED_FROM_HIGH_RISK,
  countryRisk,
} from '../../../src/contract';
import { SPEC_TEXT, specTest, day, justBefore } from './fixtures';

const spec = SPEC_TEXT ?? '';

/** Names listed after `label` up to the sentence end (". " followed by a capital letter). */
function specNames(label: string): string[] {
  const start = spec.indexOf(label);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = spec.slice(start + label.length);
  const text = rest.slice(0, rest.search(/\.\s+[A-Z]/));
  return text.split(', ').map((s) => s.trim());
}

const CHANGE = '2026-07-31';

describe('country lists match the spec', () => {
  specTest('48 countries added to high risk, every spec name has an ISO code here', () => {
    const names = specNames('Added to high risk: ');
    expect(names).toHaveLength(48);
    expect(Object.values(ADDED_TO_HIGH_RISK).sort()).toEqual([...names].sort());
    for (const code of Object.keys(ADDED_TO_HIGH_RISK)) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  specTest('7 removed from high risk', () => {
    const names = specNames('Removed from high risk: ');
    expect(names).toHaveLength(7);
    expect(Object.values(REMOVED_FROM_HIGH_RISK).sort()).toEqual([...names].sort());
  });

  specTest(
    'prohibited → high risk: Central African Republic, Guinea, Mali; high risk → prohibited: Lebanon, West Bank',
    () => {
      expect(spec).toContain('Central African Republic, Guinea and Mali move from prohibited to high risk');
      expect(Object.values(PROHIBITED_TO_HIGH_RISK)).toEqual(['Central African Republic', 'Guinea', 'Mali']);
      expect(spec).toContain('Lebanon and West Bank move from high risk to prohibited, immediately');
      expect(PROHIBITED_IMMEDIATELY).toEqual({ LB: 'Lebanon', PS: 'West Bank' });
    },
  );

  test('no country is in two lists', () => {
    const all = [
      ADDED_TO_HIGH_RISK,
      REMOVED_FROM_HIGH_RISK,
      PROHIBITED_TO_HIGH_RISK,
      PROHIBITED_IMMEDIATELY,
    ].flatMap(Object.keys);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('countryRisk on each side of 2026-07-31', () => {
  const before = justBefore(CHANGE);
  const after = day(CHANGE);

  test.each(Object.keys(ADDED_TO_HIGH_RISK))('%s: STANDARD before, HIGH_RISK from the change', (code) => {
    expect(countryRisk(code, before)).toBe('STANDARD');
    expect(countryRisk(code, after)).toBe('HIGH_RISK');
  });

  test.each(Object.keys(REMOVED_FROM_HIGH_RISK))('%s: HIGH_RISK before, STANDARD from the change', (code) => {
    expect(countryRisk(code, before)).toBe('HIGH_RISK');
    expect(countryRisk(code, after)).toBe('STANDARD');
  });

  test.each(Object.keys(PROHIBITED_TO_HIGH_RISK))(
    '%s: PROHIBITED before, HIGH_RISK from the change',
    (code) => {
      expect(countryRisk(code, before)).toBe('PROHIBITED');
      expect(countryRisk(code, after)).toBe('HIGH_RISK');
    },
  );

  test('LB and PS are prohibited "immediately": at every date, long before and after the change', () => {
    for (const code of ['LB', 'PS', 'lb']) {
      for (const d of [new Date('2000-01-01T00:00:00Z'), new Date('2025-09-01T00:00:00Z'), before, after]) {
        expect(countryRisk(code, d)).toBe('PROHIBITED');
      }
    }
  });

  test('a country the spec does not name is STANDARD unless given as extra', () => {
    expect(countryRisk('DE', after)).toBe('STANDARD');
    expect(countryRisk('KP', after, { prohibited: ['KP'] })).toBe('PROHIBITED');
    expect(countryRisk('IR', before, { highRisk: ['IR'] })).toBe('HIGH_RISK');
  });
});
