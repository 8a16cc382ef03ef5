// Unit: the entities' legacy payload checks (workflows/provider-*/legacy-payloads.ts) — the only plain schemas
// left: they decide, on replay, whether a raw payload of a signal recorded before the ingress parsed payloads with
// zod was kept or dropped — agree with the zod schemas the ingress now parses with: same accept/reject and output,
// and the same issues (path and message). Every other shape is zod only, at the edges.
// Inputs: valid samples with random parts replaced by values of the wrong type, format or range, and extra keys.
import fc from 'fast-check';
import { z } from 'zod';
import { CustomerSchema, PaymentSchema } from '../../src/contract';
import { CustomerShape } from '../../src/contract/customer-shape';
import { ISO_DATE } from '../../src/contract/iso-formats';
import { ISO_DATETIME_UTC, ISO_DATETIME_WITH_OFFSET, PaymentShape } from '../../src/contract/payment-shape';
import { safeParse, type PlainSchema } from '../../src/contract/plain-schema';

type Json = unknown;

const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 0, -1, 1, 1.5, -0, 2 ** 60, NaN, Infinity, true, [], {}, ['a'], [1], { code: 'E' }),
  fc.constantFrom('2026-11-23T10:00:00Z', '2026-11-23T10:00:00.123+01:00', '2026-11-23T10:00:00', '2026-02-30T10:00:00Z', '2026-11-23'),
  fc.constantFrom('PENDING', 'NEW_STATUS', 'PAYOUT', 'REFUND_PAYMENT', 'USD', 'USDCXY', 'BUSINESS', 'INDIVIDUAL', 'EU', 'us', 'APPROVED'),
  fc.constantFrom('a@b.co', 'a..b@c.de', '.a@b.cd', 'a@b', 'x@y.z1', 'EXTERNAL_BANK_ACCOUNT', 'PROOF_OF_ADDRESS', 'OVER_TWENTY_FIVE_MILLION', '1990-01-31'),
  fc.string({ maxLength: 6 }),
  fc.double(),
  fc.integer(),
);

function leafPaths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...leafPaths(v, [...prefix, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...leafPaths(v, [...prefix, k]));
  return out.filter((p) => p.length > 0);
}

function setAt(root: Json, path: (string | number)[], value: Json): Json {
  const copy = JSON.parse(JSON.stringify(root)) as Record<string | number, unknown>;
  let cur = copy;
  for (const key of path.slice(0, -1)) {
    if (!cur[key] || typeof cur[key] !== 'object') return copy;
    cur = cur[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined && !Array.isArray(cur)) delete cur[last];
  else cur[last] = value;
  return copy;
}

/** A valid sample with up to 3 parts replaced, and maybe an extra key at the top. */
function mutants(sample: Json): fc.Arbitrary<Json> {
  const paths = leafPaths(sample);
  return fc
    .tuple(fc.array(fc.tuple(fc.constantFrom(...paths), junk), { maxLength: 3 }), fc.option(junk))
    .map(([changes, extra]) => {
      let out = sample;
      for (const [path, value] of changes) out = setAt(out, path, value);
      if (extra !== null && out && typeof out === 'object' && !Array.isArray(out)) out = { ...out, extraKey: extra };
      return out;
    });
}

function expectSame(plain: PlainSchema<unknown>, zod: z.ZodType, value: Json, issues: boolean): void {
  const a = safeParse(plain, value);
  const b = zod.safeParse(value);
  expect({ value, success: a.success }).toEqual({ value, success: b.success });
  if (a.success && b.success) expect(a.data).toEqual(b.data);
  if (issues && !a.success && !b.success)
    expect(a.error.issues.map((i) => [i.path, i.message])).toEqual(b.error.issues.map((i) => [i.path, i.message]));
}

const payment = {
  id: 'pay_1',
  lifecycle: { createdAt: '2026-11-23T10:00:00.000Z', sentAt: null, completedAt: null, expiredAt: null, refundedAt: null },
  customerId: 'cus_1',
  status: 'AWAITING_FUNDS',
  statusReasons: ['a'],
  error: { code: 'E', message: null },
  type: 'PAYOUT',
  comment: null,
  reference: 'r',
  returnAddress: null,
  paymentReason: 'PURCHASE_OF_SERVICES',
  fee: 1.5,
  developerFee: { fixed: null, variable: 0.1, total: null },
  quote: { exchangeRate: 0.92, expiresAt: '2026-11-23T11:00:00+01:00' },
  tracking: { traceNumber: null, omad: null, imad: null, certificate: null, uetr: 'u' },
  files: ['f'],
  configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
  source: { amount: 1000, currencyCode: 'USD', accountId: null, rail: 'ACH', fromAddress: null, transactionHash: null, fromAccountNumber: null },
  destination: { amount: 920, rail: 'SWIFT', currencyCode: 'EUR', transactionHash: null, accountId: 'acc_dest' },
  fundingInstructions: { rail: 'ACH', amount: 1000, toAddress: null, fromAddress: null, currencyCode: 'USD' },
};

const individual = {
  type: 'INDIVIDUAL',
  firstName: 'A',
  lastName: 'B',
  birthDate: '1990-01-31',
  email: 'a.b@example.com',
  phone: '+1',
  capabilities: ['USD'],
  accountPurpose: 'p',
  address: { line1: 'l', city: 'c', postalCode: '1', stateRegionOrProvince: 's', countryCode: 'US' },
  eddQuestionnaire: { q: 1 },
};
const business = {
  type: 'BUSINESS',
  name: 'N',
  description: 'd',
  estimatedAnnualRevenueUSD: 'OVER_TWENTY_FIVE_MILLION',
  expectedMonthlyPaymentsUSD: 10,
  operatesInProhibitedCountries: false,
  highRiskActivities: [],
  conductsMoneyServices: false,
  actingAsIntermediary: true,
  sourceOfFundsDescription: 's',
  relianceAgreement: false,
  documents: [{ type: 'PROOF_OF_ADDRESS', fileUrl: 'f' }],
  associatedPersons: [{ firstName: 'A', lastName: 'B', title: 't', countryCode: 'FR', birthDate: '1980-02-29', email: 'e', selfieFileUrl: 's' }],
  email: 'x@y.io',
  phone: '+2',
  address: { countryCode: 'GB' },
};
const response = { id: 'cus_1', status: 'APPROVED', createdAt: '2026-11-23T10:00:00Z' };

const runs = { numRuns: 1000 };

describe('the legacy payload checks against the zod schemas', () => {
  it('the payment (normalizePayment in the providerPayment entity): same result and the same issues', () => {
    expectSame(PaymentShape, PaymentSchema, payment, true);
    fc.assert(fc.property(mutants(payment), (v) => expectSame(PaymentShape, PaymentSchema, v, true)), runs);
  });

  it.each([
    ['individual', { ...individual, ...response }],
    ['business', { ...business, ...response }],
  ])('the customer (providerCustomer), %s: same result and the same issues', (_name, sample) => {
    expectSame(CustomerShape, CustomerSchema, sample, true);
    fc.assert(fc.property(mutants(sample), (v) => expectSame(CustomerShape, CustomerSchema, v, true)), runs);
  });

  it('the ISO timestamps: the same as z.iso.datetime with and without an offset', () => {
    const stamp = fc.oneof(
      junk,
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.tuple(fc.date({ noInvalidDate: true }), fc.constantFrom('Z', '+01:00', '-23:59', '+24:00', '', '.5Z')).map(([d, tail]) => d.toISOString().slice(0, 19) + tail),
    );
    fc.assert(
      fc.property(stamp, (s) => {
        expect(typeof s === 'string' && ISO_DATETIME_WITH_OFFSET.test(s)).toBe(z.iso.datetime({ offset: true }).safeParse(s).success);
        expect(typeof s === 'string' && ISO_DATETIME_UTC.test(s)).toBe(z.iso.datetime().safeParse(s).success);
        const day = typeof s === 'string' ? s.slice(0, 10) : s;
        expect(typeof day === 'string' && ISO_DATE.test(day)).toBe(z.iso.date().safeParse(day).success);
      }),
      runs,
    );
  });
});
