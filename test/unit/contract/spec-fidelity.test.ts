// Spec fidelity: the contract's side, each rule on both sides of its date.
import {
  capabilitiesAllowCorridor,
  currentRail,
  getRule,
  isTeamAliasEmail,
  validateCustomer,
} from '../../../src/contract';
import { businessBody, day, justBefore } from './fixtures';

const rulesOf = (vs: Array<{ path: string; rule: string }>) => vs.map((v) => `${v.path} ${v.rule}`);

describe('currentRail (spec: Rail values; POST /payments body)', () => {
  test.each([
    ['WIRE', undefined, justBefore('2026-07-31'), 'SWIFT'],
    ['WIRE', undefined, day('2026-07-31'), 'WIRE'], // refused by validation from then
    ['CRYPTO', 'BASE', justBefore('2026-03-04'), 'BASE'],
    ['CRYPTO', 'BASE', day('2026-03-04'), 'CRYPTO'],
    ['CRYPTO', undefined, justBefore('2026-03-04'), 'CRYPTO'],
    ['ACH', 'BASE', justBefore('2026-03-04'), 'ACH'],
  ])('%s (chain %s) at %s → %s', (rail, chain, asOf, expected) => {
    expect(currentRail(rail, chain, asOf)).toBe(expected);
  });
});

describe('capabilitiesAllowCorridor (spec: Customer, capabilities)', () => {
  test.each([
    [undefined, 'USDC', 'USD', true],
    [[], 'USDC', 'USD', true],
    [['USD', 'OTHER'], 'USDC', 'EUR', true],
    [['OTHER'], 'USDC', 'USD', false],
    [['OTHER'], 'USD', 'BRL', false],
    [['OTHER'], 'USDC', 'EUR', true],
    [['OTHER'], 'EUR', 'USDC', true],
    [['USD'], 'USDC', 'USD', true],
    [['USD'], 'EUR', 'USDC', true], // USD also covers EUR onramps
    [['USD'], 'EUR', 'EURC', true],
    [['USD'], 'USDC', 'EUR', false],
    [['USD'], 'EUR', 'GBP', false],
  ])('%j: %s → %s allowed %s', (capabilities, source, destination, allowed) => {
    expect(capabilitiesAllowCorridor(capabilities as string[] | undefined, source, destination)).toBe(
      allowed,
    );
  });
});

describe('team-alias emails (decision revisited)', () => {
  test.each([
    ['ops@acme.com', true],
    ['ops+c1@acme.com', true],
    ['OPS+C1@Acme.Com', true],
    ['bob@acme.com', false],
    ['ops@eu.acme.com', false],
    ['ops@other.com', false],
  ])('team ops@acme.com: %s → refused %s', (email, refused) => {
    expect(isTeamAliasEmail(email, ['ops@acme.com'])).toBe(refused);
  });
});

describe('HIGH_RISK_PERSON_SELFIE is undated (always in force); which countries are high risk is dated', () => {
  const withPerson = (countryCode: string, selfie = false) => {
    const b = businessBody() as Record<string, any>;
    b.associatedPersons[0].countryCode = countryCode;
    if (selfie) b.associatedPersons[0].selfieFileUrl = 'https://files.example/selfie.jpg';
    return b;
  };
  const selfie = (asOf: Date, body: Record<string, unknown>) =>
    rulesOf(validateCustomer(body, asOf)).filter((r) => r.endsWith('HIGH_RISK_PERSON_SELFIE'));

  test('the rule has no date of its own', () => {
    expect(getRule('HIGH_RISK_PERSON_SELFIE').effective).toBe('1970-01-01');
  });

  test('Albania (high risk until 2026-07-31): a selfie is needed before the date, not from it', () => {
    expect(selfie(justBefore('2026-07-31'), withPerson('AL'))).toEqual([
      'associatedPersons[0].selfieFileUrl HIGH_RISK_PERSON_SELFIE',
    ]);
    expect(selfie(day('2026-07-31'), withPerson('AL'))).toEqual([]);
  });

  test('Thailand (high risk from 2026-07-31): no selfie before, a selfie from the date; with one, accepted', () => {
    expect(selfie(justBefore('2026-07-31'), withPerson('TH'))).toEqual([]);
    expect(selfie(day('2026-07-31'), withPerson('TH'))).toEqual([
      'associatedPersons[0].selfieFileUrl HIGH_RISK_PERSON_SELFIE',
    ]);
    expect(selfie(day('2026-07-31'), withPerson('TH', true))).toEqual([]);
  });
});

describe('reliance agreement: proof of verification (KYB_DOCUMENTS, 2026-07-31), the side before the date', () => {
  test('before 2026-07-31 a business with a reliance agreement and no proof of verification is accepted', () => {
    const body = { ...businessBody(), relianceAgreement: true };
    expect(
      rulesOf(validateCustomer(body, justBefore('2026-07-31'))).filter((r) => r.includes('KYB_DOCUMENTS')),
    ).toEqual([]);
    expect(
      rulesOf(validateCustomer(body, justBefore('2026-07-31'), { relianceAgreement: true })).filter((r) =>
        r.includes('KYB_DOCUMENTS'),
      ),
    ).toEqual([]);
    expect(rulesOf(validateCustomer(body, day('2026-07-31')))).toContain('documents KYB_DOCUMENTS');
  });
});
