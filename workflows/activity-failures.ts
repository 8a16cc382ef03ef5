// Turning activity failures into violations, so a refusal by the service reads like our own refusals.
// No schema code here: the payment workflow imports it (workflows parse nothing: docs/performance.md).
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { Violation } from '../src/contract';

/** The ApplicationFailure an activity failed with, if any. */
export function applicationFailureOf(err: unknown): ApplicationFailure | null {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause;
  return null;
}

/** The service's own list of violations (VALIDATION_ERROR `fields`), else one violation naming the failure type. */
export function providerViolations(failure: ApplicationFailure, path = ''): Violation[] {
  const details = (failure.details?.[0] ?? {}) as { fields?: unknown };
  const fields = Array.isArray(details.fields) ? details.fields : [];
  const violations = fields.filter(
    (f): f is Violation =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as Violation).path === 'string' &&
      typeof (f as Violation).rule === 'string',
  );
  if (violations.length > 0)
    return violations.map((v) => ({ path: v.path, rule: v.rule, message: String(v.message ?? '') }));
  return [{ path, rule: failure.type ?? 'PROVIDER_REFUSED', message: failure.message }];
}

/** One violation for a step that could not be done (e.g. no rate could be fetched). */
export function failureViolation(path: string, err: unknown, fallbackRule: string): Violation {
  const app = applicationFailureOf(err);
  if (app) return providerViolations(app, path)[0]!;
  return { path, rule: fallbackRule, message: err instanceof Error ? err.message : String(err) };
}
