// Property-based: whatever a caller hands startPayment, it answers with one typed refusal
// (PaymentRequestInvalidError, {path, rule, message} each) and starts nothing — or, for a valid input, goes on to
// start. Never a raw ZodError, a TypeError or a crash. The client is a fake that records every call to Temporal.
import fc from 'fast-check';
import type { Client } from '@temporalio/client';
import { PaymentRequestInvalidError, startPayment } from '../../../src/client/payments';
import { checkPaymentInput } from '../../../src/client/payment-request';

class Started extends Error {}

function recordingClient() {
  const calls: string[] = [];
  const record = (name: string) => () => {
    calls.push(name);
    throw new Started(name);
  };
  const client = {
    workflow: {
      executeUpdateWithStart: record('executeUpdateWithStart'),
      start: record('start'),
      getHandle: record('getHandle'),
      options: { namespace: 'default' },
    },
    workflowService: new Proxy({}, { get: (_t, name) => record(String(name)) }),
  } as unknown as Client;
  return { client, calls };
}

const validRequest = () => ({
  customerId: 'cus_1',
  source: {
    currencyCode: 'USDC',
    amount: 25,
    rail: 'POLYGON',
    fromAddress: '0x1111111111111111111111111111111111111111',
  },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
  reference: 'r',
  paymentReason: 'PERSONAL_TRANSFERS',
});

const fieldValue = fc.oneof(
  fc.anything(),
  fc.constantFrom(
    'USDC',
    'USD',
    'BRL',
    'USDX',
    'XYZ',
    '',
    'POLYGON',
    'PIX',
    'ACH',
    'CRYPTO',
    'WIRE',
    'OTHER',
  ),
  fc.double(),
  fc.constant(undefined),
  fc.func(fc.anything()),
);
const paths = [
  'paymentKey',
  'request',
  'request.source',
  'request.source.currencyCode',
  'request.source.amount',
  'request.source.rail',
  'request.destination',
  'request.destination.currencyCode',
  'request.destination.rail',
  'request.destination.accountId',
  'request.paymentReason',
  'request.memo',
  'limits',
  'limits.maxTotalFee',
  'limits.maxRateDrift',
  'options',
  'options.holidays',
  'request.__proto__',
  'request.toJSON',
];

/** A valid input with a few fields replaced by anything (or the whole input replaced by anything). */
const input = fc.oneof(
  fc.anything(),
  fc
    .record({
      key: fc.oneof(fc.string(), fc.constantFrom('order-1', 'jane@example.com', '+14155550100', '')),
      edits: fc.array(fc.tuple(fc.constantFrom(...paths), fieldValue), { maxLength: 4 }),
    })
    .map(({ key, edits }) => {
      const value: Record<string, unknown> = { paymentKey: key, request: validRequest() };
      for (const [path, v] of edits) {
        const parts = path.split('.');
        let node: Record<string, unknown> = value;
        for (const part of parts.slice(0, -1)) {
          if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
          node = node[part] as Record<string, unknown>;
        }
        Object.defineProperty(node, parts[parts.length - 1]!, {
          value: v,
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      return value;
    }),
);

const RUNS = 3_000;
/** the calls a refusal may make: reading whether the key's payment exists and what it was started with */
const READ_ONLY_CALLS = new Set(['getWorkflowExecutionHistory', 'describeWorkflowExecution']);

test(`${RUNS} random inputs: one typed refusal and nothing started in Temporal, or a valid input that goes on to start`, async () => {
  let refused = 0;
  let started = 0;
  await fc.assert(
    fc.asyncProperty(input, async (raw) => {
      const { client, calls } = recordingClient();
      let valid = true;
      try {
        checkPaymentInput(raw, new Date());
      } catch (error) {
        if (!(error instanceof PaymentRequestInvalidError)) throw error;
        valid = false;
      }
      try {
        await startPayment(client, raw as never, { taskQueue: 'q', retryForMs: 0 });
        throw new Error('the fake client never answers: startPayment cannot succeed');
      } catch (error) {
        if (valid) {
          expect(error).toBeInstanceOf(Started);
          started++;
          return;
        }
        expect(error).toBeInstanceOf(PaymentRequestInvalidError);
        const { violations } = error as PaymentRequestInvalidError;
        expect(violations.length).toBeGreaterThan(0);
        for (const v of violations)
          expect(v).toEqual({
            path: expect.any(String),
            rule: expect.any(String),
            message: expect.any(String),
          });
        // Nothing started: a refusal may only look for a payment the key already started (read-only: a retry across a
        // rule's effective date is answered by that payment, src/client/payments.ts), never start, update or signal.
        expect(calls.filter((c) => !READ_ONLY_CALLS.has(c))).toEqual([]);
        refused++;
      }
    }),
    { numRuns: RUNS },
  );
  // both branches were exercised (counts in the test name's report)
  expect(refused).toBeGreaterThan(RUNS / 10);
  expect(started).toBeGreaterThan(0);
  console.log(
    `startPayment fuzz: ${RUNS} cases, ${refused} refused before a start, ${started} went on to start`,
  );
});

/**
 * The same function against an independent oracle (it never calls checkPaymentInput): each case is a valid input
 * with at most one mutation per part (key, reference, request, limits, events) whose effect is known when it is
 * drawn — harmless (an opaque key, another reference, a well-formed `events.url` or none) or breaking, naming the
 * path a refusal must name. `events` is fuzzed: hostile URLs (other schemes, credentials, not a URL, not a string),
 * extra keys, not an object. The oracle for a URL is WHATWG URL parsing (the platform's, not xborder's). 3,000 cases.
 */
const DELETE = Symbol('delete');
/** `shape`: the input's form (checked first: a broken form is refused before the contract's rules run); `rules`: the contract. */
type Mutation = { path: string; value: unknown; breaks: string | null; level: 'shape' | 'rules' };
function apply(input: Record<string, unknown>, { path, value }: Mutation): void {
  const parts = path.split('.');
  let node = input;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  if (value === DELETE) delete node[parts.at(-1)!];
  else node[parts.at(-1)!] = value;
}
const m = (
  path: string,
  value: unknown,
  breaks: string | null,
  level: 'shape' | 'rules' = 'shape',
): Mutation => ({ path, value, breaks, level });
const opaqueKey = fc.stringMatching(/^[a-z]{1,4}-[a-z]{2,12}(-[a-z]{1,6})?$/);
const hostileUrl = fc.oneof(
  fc.constantFrom(
    'javascript:alert(1)',
    'ftp://backend.example/e',
    'file:///etc/passwd',
    'data:text/plain,x',
    'gopher://h/',
    'ws://h/e',
    'not a url',
    '',
    '//backend.example/e',
    'https://user:pw@backend.example/e',
    'http://:pw@h/e',
    'https://u@h/e',
  ),
  fc.string({ maxLength: 40 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => u.replace('://', '://admin:secret@')),
);
/** Whether a URL string is one `events.url` takes: absolute, http(s), no credentials (WHATWG URL). */
function eventsUrlOk(u: string): boolean {
  if (!URL.canParse(u)) return false;
  const url = new URL(u);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
  );
}
const keyMutation = fc.oneof(
  opaqueKey.map((k) => m('paymentKey', k, null)),
  fc.constantFrom('', 42, null).map((k) => m('paymentKey', k, 'paymentKey')),
  fc
    .constantFrom('jane.doe@example.com', '+14155550100')
    .map((k) => m('paymentKey', k, 'paymentKey', 'rules')),
);
const referenceMutation = fc.stringMatching(/^[A-Za-z]{1,20}$/).map((r) => m('request.reference', r, null));
const requestMutation = fc.oneof(
  fc
    .constantFrom(
      'source',
      'destination',
      'source.currencyCode',
      'source.amount',
      'source.rail',
      'destination.currencyCode',
      'destination.rail',
      'destination.accountId',
      'paymentReason',
    )
    .map((p) => m(`request.${p}`, DELETE, `request.${p}`, 'rules')),
  fc
    .constantFrom(-1, 0, Number.NaN, '25', null)
    .map((a) => m('request.source.amount', a, 'request.source.amount', 'rules')),
  fc
    .constantFrom('XYZ', 'USDX', 'usd')
    .map((c) => m('request.destination.currencyCode', c, 'request.destination.currencyCode', 'rules')),
);
const limitsMutation = fc
  .constantFrom(-0.5, '1', null)
  .map((f) => m('limits', { maxTotalFee: f }, 'limits.maxTotalFee'));
const eventsMutation = fc.oneof(
  hostileUrl.map((u) => m('events', { url: u }, eventsUrlOk(u) ? null : 'events.url')),
  fc.constant(m('events', {}, null)),
  fc
    .oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()))
    .map((u) => m('events', { url: u }, 'events.url')),
  fc
    .oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.anything()))
    .map((e) => m('events', e, 'events')),
  fc
    .constantFrom('secret', 'headers', 'timeoutMs', 'urls')
    .map((k) => m('events', { url: 'https://backend.example/e', [k]: 'x' }, 'events')),
);
const part = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

test('3,000 inputs against an independent oracle (events fuzzed): started exactly when nothing breaks, else refused naming each broken path', async () => {
  const counts = { started: 0, refused: 0, eventsRefused: 0 };
  await fc.assert(
    fc.asyncProperty(
      opaqueKey,
      fc.tuple(
        part(keyMutation),
        part(referenceMutation),
        part(requestMutation),
        part(limitsMutation),
        part(eventsMutation),
      ),
      async (key, parts) => {
        const raw: Record<string, unknown> = { paymentKey: key, request: validRequest() };
        const mutations = parts.filter((x): x is Mutation => x !== undefined);
        for (const mutation of mutations) apply(raw, mutation);
        const broken = mutations.filter((x) => x.breaks !== null);
        // the form first: when it is broken, the contract's rules are not read (their paths need not be named)
        const reported = broken.some((x) => x.level === 'shape')
          ? broken.filter((x) => x.level === 'shape')
          : broken;
        const expectedPaths = reported.map((x) => x.breaks!);
        const { client, calls } = recordingClient();
        const error = await startPayment(client, raw as never, { taskQueue: 'q', retryForMs: 0 }).then(
          () => new Error('the fake client never answers'),
          (e: unknown) => e,
        );
        if (expectedPaths.length === 0) {
          expect(error).toBeInstanceOf(Started);
          expect(calls.length).toBeGreaterThan(0);
          counts.started++;
          return;
        }
        expect(error).toBeInstanceOf(PaymentRequestInvalidError);
        // nothing started: a refusal may only read whether the key's payment exists (a retry across a rule's date)
        expect(calls.filter((c) => !READ_ONLY_CALLS.has(c))).toEqual([]);
        const named = (error as PaymentRequestInvalidError).violations.map((v) => v.path);
        for (const p of expectedPaths)
          expect({ p, named: named.some((n) => n === p || n.startsWith(`${p}.`)) }).toEqual({
            p,
            named: true,
          });
        counts.refused++;
        if (expectedPaths.some((p) => p.startsWith('events'))) counts.eventsRefused++;
      },
    ),
    { numRuns: 3_000 },
  );
  expect(counts.started).toBeGreaterThan(200);
  expect(counts.refused).toBeGreaterThan(1_000);
  expect(counts.eventsRefused).toBeGreaterThan(200);
  console.log(
    `startPayment oracle fuzz: 3,000 cases, ${counts.started} started, ${counts.refused} refused (${counts.eventsRefused} with a broken events)`,
  );
});
