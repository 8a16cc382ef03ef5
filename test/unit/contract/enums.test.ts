import {
  ACCOUNT_TYPES,
  ADDED_PAYMENT_REASONS,
  AUTO_LIQUIDATION,
  BANK_FIELDS,
  BLOCKCHAIN_RAILS,
  CURRENCY_RAILS,
  DEFAULT_ACCOUNT_RAILS,
  FAILURE_CODES,
  PAYMENT_REASONS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  RAILS,
  REMOVED_PAYMENT_REASONS,
  STABLECOINS,
  statusRank,
} from '../../../src/contract';
import { SPEC_TEXT, specTest } from './fixtures';

const spec = SPEC_TEXT ?? '';

/** The comma-separated list that follows `label` in the spec, up to the first period or line end. */
function specList(label: string): string[] {
  const start = spec.indexOf(label);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = spec.slice(start + label.length);
  const text = rest.slice(0, rest.search(/\.(\s|$)/));
  return text
    .split(',')
    .map((s) => s.replace(/[`\s]/g, '').trim())
    .filter(Boolean);
}

describe('enums match the spec lists', () => {
  specTest('17 accepted payment reasons, same values as the spec', () => {
    const fromSpec = specList('From July 31, 2026 the accepted values are:\n\n');
    expect(fromSpec).toHaveLength(17);
    expect([...PAYMENT_REASONS].sort()).toEqual(fromSpec.sort());
  });

  specTest('22 removed reasons, same values as the spec', () => {
    const fromSpec = specList('Values removed by that change: ');
    expect(fromSpec).toHaveLength(22);
    expect([...REMOVED_PAYMENT_REASONS].sort()).toEqual(fromSpec.sort());
  });

  specTest('7 added reasons, all in the accepted list, none in the removed one', () => {
    const fromSpec = specList('Values added: ');
    expect(fromSpec).toHaveLength(7);
    expect([...ADDED_PAYMENT_REASONS].sort()).toEqual(fromSpec.sort());
    for (const r of ADDED_PAYMENT_REASONS) expect(PAYMENT_REASONS).toContain(r);
    for (const r of REMOVED_PAYMENT_REASONS) expect(PAYMENT_REASONS).not.toContain(r);
    expect(PAYMENT_REASONS).not.toContain(AUTO_LIQUIDATION);
    expect(REMOVED_PAYMENT_REASONS).not.toContain(AUTO_LIQUIDATION);
  });

  specTest('8 failure codes, same values as spec Errors 3', () => {
    const fromSpec = specList('(in use from March 15, 2026): ');
    expect(fromSpec).toHaveLength(8);
    expect([...FAILURE_CODES].sort()).toEqual(fromSpec.sort());
  });

  specTest('17 bank identification fields, same as spec Account', () => {
    const fromSpec = specList('Bank identification fields: ');
    expect(fromSpec).toHaveLength(17);
    expect([...BANK_FIELDS].sort()).toEqual(fromSpec.sort());
  });

  test('rails: 14 enumerated values, none deprecated, FPS excluded', () => {
    expect(RAILS).toHaveLength(14);
    expect(new Set(RAILS).size).toBe(RAILS.length);
    for (const r of ['WIRE', 'CRYPTO', 'FPS']) expect(RAILS as readonly string[]).not.toContain(r);
    for (const r of BLOCKCHAIN_RAILS) expect(RAILS).toContain(r);
    for (const list of Object.values(CURRENCY_RAILS)) for (const r of list) expect(RAILS).toContain(r);
  });

  specTest('default account rails: US all three, BR TED (spec: Account, rails)', () => {
    expect(spec).toContain(
      'US accounts: ACH, ACH_SAME_DAY, DOMESTIC WIRE (default all three); BR accounts: TED, PIX (default TED)',
    );
    expect(DEFAULT_ACCOUNT_RAILS).toEqual({ US: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'], BR: ['TED'] });
  });

  specTest('payment types, account kinds, stablecoins, statuses', () => {
    expect(PAYMENT_TYPES).toEqual(['INTERNAL', 'PAYIN', 'PAYOUT', 'EXTERNAL']);
    expect(ACCOUNT_TYPES).toHaveLength(4);
    expect(STABLECOINS).toEqual(['USDC', 'USDT', 'EURC']);
    for (const s of ['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'COMPLETED', 'EXPIRED']) {
      expect(PAYMENT_STATUSES as readonly string[]).toContain(s);
      expect(spec).toContain(s);
    }
  });

  test('statusRank orders the happy path forward and allows EXPIRED → SENT (legacy late funding)', () => {
    const path = ['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'COMPLETED'] as const;
    for (let i = 1; i < path.length; i++)
      expect(statusRank(path[i])).toBeGreaterThan(statusRank(path[i - 1]));
    expect(statusRank('EXPIRED')).toBeGreaterThan(statusRank('AWAITING_FUNDS'));
    expect(statusRank('SENT')).toBeGreaterThan(statusRank('EXPIRED'));
    expect(statusRank('REFUNDED')).toBeGreaterThan(statusRank('EXPIRED'));
  });
});
