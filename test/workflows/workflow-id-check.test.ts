// Every keyed workflow refuses an input whose key does not name its own ID (workflows/workflow-id-check.ts): the
// attack was a start input copied under `<its ID>-<RFC 3339 time>` by a client without the keys, which ran a second
// time (docs/codec.md, "Bound to its workflow"). Here the input is given under the wrong ID directly (the test bed
// has no codec): the run fails at once with WORKFLOW_ID_MISMATCH, non-retryable, before any activity.
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  ONBOARD_CUSTOMER_WORKFLOW_TYPE,
  onboardCustomerWorkflowId,
} from '../../workflows/onboard-customer/api';
import {
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
} from '../../workflows/provider-customer/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import { PAYMENT_WORKFLOW_TYPE, paymentWorkflowId } from '../../workflows/payment/api';
import {
  REGISTER_ACCOUNT_WORKFLOW_TYPE,
  registerAccountWorkflowId,
} from '../../workflows/register-account/api';
import { TRANSFER_WORKFLOW_TYPE, transferWorkflowId } from '../../workflows/transfer/api';
import {
  PAYMENT_EVENTS_WORKFLOW_TYPE,
  paymentEventsWorkflowId,
  transferEventsWorkflowId,
} from '../../workflows/payment-events/api';
import { WORKFLOW_ID_MISMATCH, workflowIdMismatch } from '../../workflows/workflow-id-check';
import { ENTITY_PATCHES } from '../../workflows/provider-payment/patches';
import { CUSTOMER_PATCHES } from '../../workflows/provider-customer/patches';
import { uniqueWorkflowId } from '../support/temporal';
import { individualBody } from '../unit/contract/fixtures';
import { paymentRequest, useTestBed } from './support/test-bed';

const bed = useTestBed();
const COPY = '-2026-01-01T00:00:00Z';

async function refusal(type: string, workflowId: string, input: unknown): Promise<ApplicationFailure> {
  const handle = await bed.env.client.workflow.start(type, {
    taskQueue: bed.taskQueue,
    workflowId,
    args: [input],
  });
  bed.worker.started.add(workflowId);
  const error = await handle.result().then(
    () => new Error('expected the run to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

describe('a keyed workflow started under an ID that is not its key’s', () => {
  const key = () => uniqueWorkflowId('idc');
  const cases: Array<[string, (k: string) => string, (k: string) => unknown]> = [
    [PAYMENT_WORKFLOW_TYPE, paymentWorkflowId, (k) => ({ paymentKey: k, request: paymentRequest() })],
    [
      TRANSFER_WORKFLOW_TYPE,
      transferWorkflowId,
      (k) => ({
        transferKey: k,
        customer: { customerId: 'cus_1' },
        account: { accountId: 'acc_1' },
        payment: { request: paymentRequest() },
      }),
    ],
    [
      ONBOARD_CUSTOMER_WORKFLOW_TYPE,
      onboardCustomerWorkflowId,
      (k) => ({ customerKey: k, customer: individualBody() }),
    ],
    [
      REGISTER_ACCOUNT_WORKFLOW_TYPE,
      registerAccountWorkflowId,
      (k) => ({ accountKey: k, account: { type: 'EXTERNAL_BANK_ACCOUNT' } }),
    ],
    [PROVIDER_PAYMENT_WORKFLOW_TYPE, providerPaymentWorkflowId, (k) => ({ providerPaymentId: k })],
    [PROVIDER_CUSTOMER_WORKFLOW_TYPE, providerCustomerWorkflowId, (k) => ({ customerId: k })],
    // a delivery workflow signs what it delivers with xborder's webhook secret: its pending events are its input's
    [
      PAYMENT_EVENTS_WORKFLOW_TYPE,
      paymentEventsWorkflowId,
      (k) => ({ paymentKey: k, endpointUrl: null, pending: [] }),
    ],
    [
      PAYMENT_EVENTS_WORKFLOW_TYPE,
      transferEventsWorkflowId,
      (k) => ({ paymentKey: k, endpointUrl: null, pending: [] }),
    ],
  ];

  it.each(cases)(
    '%s fails at once with WORKFLOW_ID_MISMATCH, non-retryable, calling nothing',
    async (type, idOf, inputOf) => {
      const k = key();
      const calls = bed.fake.calls.length;
      for (const wrongId of [`${idOf(k)}${COPY}`, idOf(`${k}x`), idOf(k).toUpperCase()]) {
        const failure = await refusal(type, wrongId, inputOf(k));
        expect(failure.type).toBe(WORKFLOW_ID_MISMATCH);
        expect(failure.nonRetryable).toBe(true);
        expect(failure.message).toContain(idOf(k));
      }
      expect(bed.fake.calls.length).toBe(calls);
    },
  );

  it('an AUTO_UPGRADE entity refuses behind its own patch id (the marker is in the failed run, not in runs under their own ID)', async () => {
    const k = key();
    const wrongId = `${providerPaymentWorkflowId(k)}${COPY}`;
    await refusal(PROVIDER_PAYMENT_WORKFLOW_TYPE, wrongId, { providerPaymentId: k });
    const history = await bed.env.client.workflow.getHandle(wrongId).fetchHistory();
    const markers = (history.events ?? [])
      .filter((e) => e.markerRecordedEventAttributes)
      .map((e) => JSON.stringify(e.markerRecordedEventAttributes?.details));
    expect(markers.join()).toContain(
      Buffer.from(JSON.stringify(ENTITY_PATCHES.refusesAnotherId)).toString('base64'),
    );
    expect(CUSTOMER_PATCHES.refusesAnotherId).toBe('customer-entity-refuses-another-id');
  });
});

describe('workflowIdMismatch (pure)', () => {
  it('is null only for the exact ID', () => {
    expect(workflowIdMismatch('payment:k', 'payment:k')).toBeNull();
    for (const other of [
      'payment:k-2026-01-01T00:00:00Z',
      'payment:K',
      'payment:k ',
      ' payment:k',
      'payment:',
      'payment:k\u200b',
      'payment:k'.normalize('NFD') + '\u0301',
    ]) {
      expect(workflowIdMismatch('payment:k', other)).toMatchObject({
        type: WORKFLOW_ID_MISMATCH,
        nonRetryable: true,
      });
    }
  });
});
