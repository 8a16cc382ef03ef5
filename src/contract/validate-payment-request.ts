// Every violation of a POST /payments body at asOf (spec: POST /payments body; Rail values; Payment reason values),
// the schema checked with zod (CreatePaymentRequestSchema). Runs at the edges (the client, the CLI, the provider
// client's prevalidation, the sandbox), never in a workflow (docs/performance.md).
import type { Violation } from './errors';
import { CreatePaymentRequestSchema } from './payment';
import { paymentRequestViolations } from './validate-payment';

/** Every violation of a POST /payments body at `asOf` (the spec's dated rules), never the first only; [] = valid. */
export function validatePaymentRequest(body: unknown, asOf: Date): Violation[] {
  return paymentRequestViolations(body, asOf, (b) => CreatePaymentRequestSchema.safeParse(b));
}
