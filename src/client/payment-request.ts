// What startPayment takes and everything it refuses before starting anything. A request refused here started no
// workflow and saved nothing under its key (as the service saves no idempotent result for a request it refused
// before executing it): the same key with a corrected request starts afresh. Every such refusal is one typed error
// with the service's violation shape, {path, rule, message}, naming the field the caller wrote.
import type { z } from 'zod';
import { BLOCKCHAIN_RAILS, CURRENCY_RAILS, validatePaymentRequest, type Violation } from '../contract';
import { isKnownCurrencyCode, isStablecoinCode, ISO_4217_CODES } from '../contract/currency-codes';
import { personalDataInKey } from '../codec/identifiers';
import { PaymentInputSchema } from '../../workflows/inputs';
import { pullsFromAccount } from '../../workflows/payment-rules';

// The typed request (the closed lists as unions) is defined with the contract, so the Nexus service definition,
// which may import only the contract and the workflow APIs, takes the very same type.
export type { PaymentRequest, StartPaymentInput } from '../../workflows/inputs';

/**
 * Refused before anything started: no workflow, no call to the service, nothing saved under the key. `violations`
 * has every problem found; path names the field of the startPayment input (`paymentKey`, `request.source.rail`,
 * `limits.maxTotalFee`).
 */
export class PaymentRequestInvalidError extends Error {
  readonly type = 'PAYMENT_REQUEST_INVALID';
  constructor(readonly violations: Violation[]) {
    super(
      `the payment was not started (nothing was sent, the key is still free): ${violations
        .map((v) => `${v.path || '(input)'}: ${v.message} [${v.rule}]`)
        .join('; ')}`,
    );
    this.name = 'PaymentRequestInvalidError';
  }
}

/** The input as it will travel (JSON): what the workflow receives and fingerprints, so both sides hash the same. */
export type ParsedPaymentInput = z.output<typeof PaymentInputSchema>;

/**
 * The input parsed and made plain JSON, or PaymentRequestInvalidError. Checks the shape, the key (no personal data:
 * keys become workflow IDs, never encrypted), the contract's rules at `asOf`, currency codes and rail/currency
 * pairs. Refusals by the service itself (an unsupported corridor it publishes, a fee above the limit) still come
 * back as a REJECTED answer; one that created nothing frees the key (src/client/freed-key.ts).
 */
export function checkPaymentInput(input: unknown, asOf: Date): ParsedPaymentInput {
  const shape = PaymentInputSchema.safeParse(asJson(input));
  if (!shape.success) throw new PaymentRequestInvalidError(shape.error.issues.map(issueToViolation));
  const parsed = shape.data;
  const violations: Violation[] = [];
  const personal = personalDataInKey(parsed.paymentKey);
  if (personal)
    violations.push({
      path: 'paymentKey',
      rule: 'PERSONAL_DATA_IN_KEY',
      message: `looks like it contains ${personal}: keys become workflow IDs, which are never encrypted; use an opaque id (docs/codec.md)`,
    });
  const rules = [...validatePaymentRequest(parsed.request, asOf), ...currencyViolations(parsed.request)];
  violations.push(...rules.map((v) => ({ ...v, path: v.path ? `request.${v.path}` : 'request' })));
  if (parsed.limits?.maxRateDrift !== undefined && pullsFromAccount(parsed.request as never))
    violations.push({
      path: 'limits.maxRateDrift',
      rule: 'DRIFT_LIMIT_ON_PULL_PAYMENT',
      message:
        'maxRateDrift cannot be enforced for a payment with source.accountId: the funds are pulled when it is created. Omit maxRateDrift, or use maxTotalFee (checked before creation).',
    });
  if (violations.length > 0) throw new PaymentRequestInvalidError(violations);
  return parsed;
}

/** The input's shape only (no dated rule, no key check): what a payment started earlier with it holds, or null. */
export function parsePaymentInputShape(input: unknown): ParsedPaymentInput | null {
  try {
    const shape = PaymentInputSchema.safeParse(asJson(input));
    return shape.success ? shape.data : null;
  } catch {
    return null;
  }
}

/**
 * JSON round trip: functions, symbols and undefined values are dropped, dates become strings — exactly what the
 * workflow will receive. A value JSON cannot carry (a BigInt, a cycle) is a refusal, not a crash.
 */
function asJson(input: unknown): unknown {
  try {
    const text = JSON.stringify(input);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new PaymentRequestInvalidError([
      {
        path: '',
        rule: 'NOT_JSON',
        message: `the input cannot be sent as JSON (${(error as Error).message})`,
      },
    ]);
  }
}

function issueToViolation(issue: z.core.$ZodIssue): Violation {
  const path = issue.path.map(String).join('.');
  const rule =
    issue.code === 'invalid_type' && issue.input === undefined ? 'REQUIRED' : issue.code.toUpperCase();
  return { path, rule, message: issue.message };
}

const FIAT_RAIL_CURRENCY = new Map<string, string>(
  Object.entries(CURRENCY_RAILS).flatMap(([currency, rails]) =>
    rails.map((rail) => [rail, currency] as [string, string]),
  ),
);

/**
 * spec: Rail values ("Currency codes seen"; "Currencies with several rail choices") — a code nobody issues, a
 * blockchain rail for a fiat currency, a stablecoin on a bank rail, or a currency's own rail (PIX, ACH, IMPS…)
 * under another currency: no corridor can carry it. Paths are the request's fields.
 */
export function currencyViolations(request: Record<string, unknown>): Violation[] {
  const violations: Violation[] = [];
  for (const side of ['source', 'destination'] as const) {
    const part = request[side] as { currencyCode?: unknown; rail?: unknown } | undefined;
    const code = typeof part?.currencyCode === 'string' ? part.currencyCode : undefined;
    if (code === undefined) continue;
    if (!isKnownCurrencyCode(code)) {
      violations.push({
        path: `${side}.currencyCode`,
        rule: 'CURRENCY_UNKNOWN',
        message: `${code} is not an ISO 4217 currency code nor a stablecoin the service names (USDC, USDT, EURC)`,
      });
      continue;
    }
    const rail = typeof part?.rail === 'string' ? part.rail : undefined;
    if (rail === undefined) continue;
    const onChain = (BLOCKCHAIN_RAILS as readonly string[]).includes(rail);
    const railCurrency = FIAT_RAIL_CURRENCY.get(rail);
    let why: string | null = null;
    if (onChain && ISO_4217_CODES.has(code))
      why = `${rail} is a blockchain: it carries stablecoins, not ${code}`;
    else if (isStablecoinCode(code) && railCurrency)
      why = `${rail} is a ${railCurrency} bank rail: ${code} moves on a blockchain`;
    else if (railCurrency && railCurrency !== code) why = `${rail} carries ${railCurrency}, not ${code}`;
    if (why) violations.push({ path: `${side}.rail`, rule: 'RAIL_NOT_FOR_CURRENCY', message: why });
  }
  return violations;
}
