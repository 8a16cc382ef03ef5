// Lint fixture: a workflow that does I/O. eslint must reject all three imports (test/foundation/lint.test.ts).
import got from 'got';
import { readFileSync } from 'node:fs';
import { createPaymentActivities } from '../../../activities/payment-activities';

export async function badWorkflow(): Promise<unknown> {
  return [got, readFileSync, createPaymentActivities];
}
