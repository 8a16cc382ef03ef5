// The workflow inputs' schemas (inputs.ts) as plain schemas (src/contract/plain-schema.ts): what payment and the
// entities still parse their input with (transfer, onboardCustomer, registerAccount, reconcilePayments take their
// input as their callers parsed it with zod). Zod stays out of the workflow bundle (docs/performance.md, issue 12); clients parse
// with the zod schemas of inputs.ts before starting, so both must agree — test/unit/plain-schema.test.ts checks
// each pair on the same inputs.
import { array, literalEnum, nullable, number, object, optional, safeParse, string, unknown } from '../src/contract/plain-schema';
import { pathToString } from '../src/contract/violations';
import type {
  PaymentInput,
  ProviderCustomerInput,
  ProviderPaymentInput,
} from './inputs';

const durationMs = number({ int: true, positive: true });
const key = string({ min: 1 });
const body = object({}, { loose: true });

const limits = optional(
  object({
    maxTotalFee: optional(number({ nonnegative: true })),
    maxRateDrift: optional(number({ nonnegative: true })),
  }),
);
const options = optional(
  object({
    expiredLingerMs: optional(number({ int: true, nonnegative: true })),
    reconcileEveryMs: optional(durationMs),
    holidays: optional(array(string())),
  }),
);

// Each parses to the input type as the workflow reads it (the zod schema's output type, in inputs.ts).
type Parser<T> = (value: unknown, path: (string | number)[], issues: { path: (string | number)[]; message: string }[]) => T;

// the url is checked by the client (EventEndpointUrlSchema); the worker delivers only to endpoints it is configured with
const events = optional(object({ url: optional(string({ min: 1 })) }));

export const PaymentInputShape: Parser<PaymentInput> = object({ paymentKey: key, request: body, limits, options, events });

export const ProviderPaymentInputShape: Parser<ProviderPaymentInput> = object({
  providerPaymentId: key,
  payment: optional(unknown),
  subscribers: optional(array(string())),
  seenEventIds: optional(array(string())),
  statusHistory: optional(array(object({ at: string(), status: string(), cause: string() }))),
  terminalSince: optional(nullable(string())),
  reconcileEveryMs: optional(durationMs),
  lingerAfterTerminalMs: optional(number({ int: true, nonnegative: true })),
  continueAsNewAfterEvents: optional(number({ int: true, positive: true })),
  unconfirmedPushes: optional(
    array(object({ eventId: string(), payment: unknown, cause: optional(literalEnum(['event', 'reconcile'] as const)) })),
  ),
  pushMismatches: optional(array(object({ eventId: string(), pushed: string(), read: string(), at: string() }))),
});

export const ProviderCustomerInputShape: Parser<ProviderCustomerInput> = object({
  customerId: key,
  customer: optional(unknown),
  subscribers: optional(array(string())),
  seenEventIds: optional(array(string())),
  lingerAfterFinalMs: optional(number({ int: true, nonnegative: true })),
  maxReviewIdleMs: optional(durationMs),
  continueAsNewAfterEvents: optional(number({ int: true, positive: true })),
});

/**
 * `schema.parse` of the zod schemas the entities used: a bad input throws a plain Error (a workflow task failure,
 * retried), not an ApplicationFailure — as the ZodError did. The other workflows use parseWorkflowInput.
 */
export function parseOrThrow<T>(schema: Parser<T>, raw: unknown): T {
  const parsed = safeParse(schema, raw);
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `${pathToString(i.path) || '(input)'}: ${i.message}`).join('; '));
  return parsed.data;
}
