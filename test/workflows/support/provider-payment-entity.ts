// What the providerPayment tests do to an entity: have the (fake) provider create a payment, deliver a
// webhook event by signalWithStart as the ingress does, and read the entity's snapshot.
import type { Payment } from '../../../src/contract';
import { type ProviderPaymentInput } from '../../../workflows/messages';
import {
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
} from '../../../workflows/provider-payment/api';
import { paymentRequest, type TestBed } from './test-bed';

export function providerPaymentDriver(bed: TestBed) {
  return {
    async providerCreates(overrides: Partial<Payment> = {}): Promise<Payment> {
      const p = await bed.fake.activities().createPayment(paymentRequest() as never, `test:${Math.random()}`);
      return bed.fake.set(p.id, overrides);
    },
    async send(p: Payment, eventId: string, input: Partial<ProviderPaymentInput> = {}) {
      const handle = await bed.env.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
        workflowId: providerPaymentWorkflowId(p.id),
        taskQueue: bed.taskQueue,
        args: [{ providerPaymentId: p.id, ...input }],
        signal: providerPaymentEventSignal,
        signalArgs: [{ eventId, type: 'payment.updated', payment: p }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      return bed.env.client.workflow.getHandle(handle.workflowId);
    },
    snapshot: (id: string) =>
      bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).query(providerPaymentSnapshotQuery),
  };
}
