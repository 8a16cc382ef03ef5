// workflows/payment/api.ts: what callers import to reach a payment — its type name, ID, query and update
// definitions; the calls a backend makes with them (getPaymentState, cancelPayment) are the client's, checked here
// to send those very definitions to `payment:<key>`.
import type { Client } from '@temporalio/client';
import { cancelPayment, getPaymentState } from '../../../src/client';
import {
  cancelUpdate,
  PAYMENT_WORKFLOW_TYPE,
  paymentStateQuery,
  paymentWorkflowId,
} from '../../../workflows/payment/api';
import { WORKFLOW_VERSIONING_BEHAVIORS } from '../../../workflows/versioning';

/** The part of a Client these calls use, recording each query and update it is asked for. */
function fakeClient(calls: unknown[][]): Client {
  const fake = {
    workflow: {
      getHandle: (id: string) => ({
        query: async (def: { name: string }) => (calls.push(['query', id, def.name]), { workflowId: id }),
        executeUpdate: async (def: { name: string }, options: { args: unknown[] }) => (
          calls.push(['update', id, def.name, options.args]),
          { workflowId: id }
        ),
      }),
    },
  };
  return fake as unknown as Client;
}

describe('payment api', () => {
  it('names the workflow type the worker registers and pins it', () => {
    expect(PAYMENT_WORKFLOW_TYPE).toBe('payment');
    expect(WORKFLOW_VERSIONING_BEHAVIORS[PAYMENT_WORKFLOW_TYPE]).toBe('PINNED');
    expect(paymentWorkflowId('order-1')).toBe('payment:order-1');
  });

  it('queries the state and asks to cancel the payment of a key', async () => {
    const calls: unknown[][] = [];
    const client = fakeClient(calls);
    await getPaymentState(client, 'order-1');
    await cancelPayment(client, 'order-1', 'changed my mind');
    await cancelPayment(client, 'order-1');
    expect(calls).toEqual([
      ['query', 'payment:order-1', paymentStateQuery.name],
      ['update', 'payment:order-1', cancelUpdate.name, [{ reason: 'changed my mind' }]],
      ['update', 'payment:order-1', cancelUpdate.name, [{}]],
    ]);
  });
});
