// Handles typed from the workflow functions themselves (`import type`: no workflow code is loaded), so a result is
// read as the workflow declares it (`Promise<PaymentOutcome>`, `Promise<TransferResult>`), never cast.
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { payment } from '../../workflows/payment/workflow';
import type { transfer } from '../../workflows/transfer/workflow';

/** The handle of `payment:<key>` (or any run of the payment workflow), its result typed PaymentOutcome. */
export function paymentHandle(client: Client, workflowId: string): WorkflowHandle<typeof payment> {
  return client.workflow.getHandle<typeof payment>(workflowId);
}

/** The handle of `transfer:<key>`, its result typed TransferResult. */
export function transferHandle(client: Client, workflowId: string): WorkflowHandle<typeof transfer> {
  return client.workflow.getHandle<typeof transfer>(workflowId);
}
