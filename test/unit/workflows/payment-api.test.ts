// workflows/payment/api.ts: what callers import to reach a payment — its type name, ID and typed helpers. The
// helpers take a client typed structurally (workflow code may not import @temporalio/client); a real `Client`
// must fit it, which this file checks at compile time.
import type { Client } from '@temporalio/client';
import {
  cancelPaymentOf,
  cancelUpdate,
  PAYMENT_WORKFLOW_TYPE,
  paymentStateQuery,
  paymentWorkflowId,
  queryPaymentState,
  type PaymentClient,
} from '../../../workflows/payment/api';
import { WORKFLOW_VERSIONING_BEHAVIORS } from '../../../workflows/versioning';

// compile-time: a Client of @temporalio/client is a PaymentClient
const fits = (client: Client): PaymentClient => client;
void fits;

function fakeClient(calls: unknown[][]): PaymentClient {
  return {
    workflow: {
      getHandle: (id) => ({
        query: async (def) => (calls.push(['query', id, def.name]), { workflowId: id }) as never,
        executeUpdate: async (def, options) =>
          (calls.push(['update', id, def.name, options.args]), { workflowId: id }) as never,
      }),
    },
  };
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
    await queryPaymentState(client, 'order-1');
    await cancelPaymentOf(client, 'order-1', 'changed my mind');
    await cancelPaymentOf(client, 'order-1');
    expect(calls).toEqual([
      ['query', 'payment:order-1', paymentStateQuery.name],
      ['update', 'payment:order-1', cancelUpdate.name, [{ reason: 'changed my mind' }]],
      ['update', 'payment:order-1', cancelUpdate.name, [{}]],
    ]);
  });
});
