// The ingress parses what a webhook carries with the contract before it signals the entity (src/ingress/routing.ts):
// the entity is sent a current-shape Payment or Customer, never the body as it came; a body that does not fit the
// contract is not refused (the sender would not retry a 4xx): the entity gets the event without it.
import { createTemporalRouter } from '../../src/ingress/routing';
import type { WebhookEvent } from '../../src/contract';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
} from '../../workflows/provider-payment/api';
import { PROVIDER_CUSTOMER_WORKFLOW_TYPE, customerEventSignal } from '../../workflows/provider-customer/api';
import { legacyPayload } from '../unit/contract/fixtures';
import { recordingClient } from '../support/recording-client';

const event = (type: string, data: Record<string, unknown>): WebhookEvent => ({
  id: 'evt_k1',
  type,
  createdAt: '2026-11-21T10:00:00Z',
  data,
});

describe('the ingress signals parsed payloads', () => {
  it('sends a legacy payment body in the current shape, with the entity policies', async () => {
    const { client, calls } = recordingClient();
    const legacy = legacyPayload();
    const current = { id: String(legacy.id), type: legacy.paymentType, createdAt: legacy.createdAt };
    await createTemporalRouter(client, 'q-routing').route(event('payment.updated', legacy))!.deliver();
    expect(calls).toHaveLength(1);
    const [{ type, options }] = calls;
    expect(type).toBe(PROVIDER_PAYMENT_WORKFLOW_TYPE);
    expect(options).toMatchObject({
      workflowId: `provider-payment:${current.id}`,
      taskQueue: 'q-routing',
      args: [{ providerPaymentId: current.id }],
      signal: providerPaymentEventSignal,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
    const [sent] = options.signalArgs as [{ payment: Record<string, unknown> }];
    expect(sent.payment.type).toBe(current.type);
    expect(sent.payment).not.toHaveProperty('paymentType');
    expect((sent.payment.lifecycle as Record<string, unknown>).createdAt).toBe(current.createdAt);
  });

  it('sends the event without the payment when the body does not fit the contract', async () => {
    const { client, calls } = recordingClient();
    await createTemporalRouter(client, 'q-routing')
      .route(event('payment.updated', { id: 'pay_bad', status: 'SENT' }))!
      .deliver();
    expect(calls[0].options.signalArgs).toEqual([
      { eventId: 'evt_k1', type: 'payment.updated', createdAt: '2026-11-21T10:00:00Z', payment: null },
    ]);
  });

  it('sends a customer that does not fit the contract as null, to the customer entity', async () => {
    const { client, calls } = recordingClient();
    await createTemporalRouter(client, 'q-routing')
      .route(event('customer.updated', { id: 'cus_1', status: 'APPROVED' }))!
      .deliver();
    expect(calls[0].type).toBe(PROVIDER_CUSTOMER_WORKFLOW_TYPE);
    expect(calls[0].options).toMatchObject({
      workflowId: 'provider-customer:cus_1',
      signal: customerEventSignal,
    });
    expect((calls[0].options.signalArgs as [{ customer: unknown }])[0].customer).toBeNull();
  });
});
