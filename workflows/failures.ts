// Parsing a workflow's input; the activity-failure helpers live in activity-failures.ts (re-exported here).
import { ApplicationFailure } from '@temporalio/workflow';
import { safeParse, type PlainSchema } from '../src/contract/plain-schema';
import { pathToString } from '../src/contract/violations';
import { PAYMENT_FAILURE_TYPES } from './payment/api';

export { applicationFailureOf, failureViolation, providerViolations } from './activity-failures';

/** Parses a workflow's input; a bad input fails the workflow at once (INVALID_INPUT, not retryable). */
// The schemas are plain (input-shapes.ts), not zod: no zod in the workflow bundle (docs/performance.md).
export function parseWorkflowInput<T>(schema: PlainSchema<T>, raw: unknown): T {
  const parsed = safeParse(schema, raw);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${pathToString(i.path) || '(input)'}: ${i.message}`).join('; ');
    throw ApplicationFailure.create({ type: PAYMENT_FAILURE_TYPES.INVALID_INPUT, message, nonRetryable: true });
  }
  return parsed.data;
}
