// Lint fixture: a workflow that loads zod (docs/performance.md). eslint must reject the three value
// imports and accept the type-only one (test/foundation/lint.test.ts).
import { z } from 'zod';
import { PaymentSchema } from '../../../src/contract';
import { PaymentInputSchema } from '../../../workflows/inputs';
import type { Payment } from '../../../src/contract';

export async function badWorkflow(p: Payment): Promise<unknown> {
  return [z, PaymentSchema, PaymentInputSchema, p];
}
