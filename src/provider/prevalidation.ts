// Pre-validation: creating calls are checked with the contract's validators before anything is sent, and
// refused locally with every violation at once. spec: the dated rules of Customer, Account, POST /payments body
// (applied by the date in use: today, or an `asOf` passed in, e.g. the sandbox clock or a workflow's date).
import { validateAccount, validateCustomer, validatePaymentRequest, type Violation } from '../contract';
import { LocalValidationError } from './errors';

export type ValidatedKind = 'customer' | 'account' | 'payment';

const VALIDATORS: Record<ValidatedKind, (body: unknown, asOf: Date) => Violation[]> = {
  customer: (body, asOf) => validateCustomer(body, asOf),
  account: (body, asOf) => validateAccount(body, asOf),
  payment: (body, asOf) => validatePaymentRequest(body, asOf),
};

const ENDPOINT: Record<ValidatedKind, string> = {
  customer: 'POST /v1/customers',
  account: 'POST /v1/accounts',
  payment: 'POST /v1/payments',
};

/** Throws LocalValidationError listing every violation; returns when the body is valid on `asOf`. */
export function assertValid(kind: ValidatedKind, body: unknown, asOf: Date): void {
  const violations = VALIDATORS[kind](body, asOf);
  if (violations.length === 0) return;
  const day = asOf.toISOString().slice(0, 10);
  const [method, path] = ENDPOINT[kind].split(' ') as [string, string];
  throw new LocalValidationError(
    `${ENDPOINT[kind]} not sent: the ${kind} body breaks ${violations.length} rule(s) in force on ${day}: ` +
      violations.map((v) => `${v.path || '(body)'}: ${v.message}`).join('; '),
    {
      method,
      path,
      fields: violations.map((v) => ({ path: v.path, rule: v.rule, message: v.message })),
    },
  );
}
