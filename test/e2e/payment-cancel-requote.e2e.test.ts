// End to end (dev server + sandbox + worker + ingress): requote with an update ID, the cancel update and a
// Temporal cancel request on `payment`. Records the histories of these scenarios for the
// replay test when XBORDER_RECORD_HISTORIES=1, and never over an existing one (test/support/record-new-histories.ts).
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { cancelPayment, getPaymentState, requotePayment, startPayment } from '../../src/client/payments';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { recordNewHistories } from '../support/record-new-histories';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(120_000);

const toRecord: Array<[scenario: string, workflowIds: string[]]> = [];
/**
 * Scenario name prefix: a `pre-` prefix was used once to record these scenarios with the code from before the
 * requote and cancel changes (workflows/ and activities/ of main checked out), which proves the patched()
 * guards replay old histories.
 */
const PREFIX = process.env.XBORDER_HISTORY_PREFIX ?? '';
let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true, quoteValidityMs: 8_000 } });
});
afterAll(async () => {
  try {
    for (const [scenario, ids] of toRecord)
      await recordNewHistories(stack.client, stack.temporal.address, scenario, ids);
    // the cancelled payments still listen for a late notice: stop them with the stack
    for (const [, ids] of toRecord)
      for (const id of ids)
        await stack.client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch(() => undefined);
  } finally {
    await stack?.close();
  }
});

function request(reference: string) {
  return demoPaymentRequest(reference);
}

async function start(prefix: string) {
  const key = uniqueKey(prefix);
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  return { key, started, created: started.created };
}

it('requote after the quote expired, retried with the same update ID: one new provider payment, funded, COMPLETED', async () => {
  const { key, started, created } = await start('e2e-requote');
  toRecord.push([`${PREFIX}requote`, [started.workflowId]]);
  await eventually('QUOTE_EXPIRED phase', async () => {
    const state = await getPaymentState(stack.client, paymentWorkflowId(key));
    return state.phase === 'QUOTE_EXPIRED' ? state : null;
  });
  const updateId = `requote-${key}`;
  const first = await requotePayment(stack.client, key, { updateId });
  const retried = await requotePayment(stack.client, key, { updateId }); // e.g. after an RPC timeout
  expect(retried).toEqual(first);
  if (first.outcome !== 'CREATED') throw new Error('requote refused');
  expect(first.providerPaymentId).not.toBe(created.providerPaymentId);
  const ours: string[] = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === key) ours.push(p.id);
  expect(ours.sort()).toEqual([created.providerPaymentId, first.providerPaymentId].sort());
  await got.post(`${stack.sandbox.url}/sandbox/payments/${first.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  const outcome = await started.result();
  expect(outcome).toMatchObject({ outcome: 'COMPLETED', payment: { id: first.providerPaymentId } });
});

it('the cancel update before funds: CANCELLING at once, and the workflow keeps listening', async () => {
  const { key, started } = await start('e2e-cancel');
  toRecord.push([`${PREFIX}cancel-update`, [started.workflowId]]);
  const state = await cancelPayment(stack.client, key, 'customer changed their mind');
  expect(state).toMatchObject({ phase: 'CANCELLING', cancel: { decision: 'ACCEPTED', via: 'UPDATE' } });
  const handle = stack.client.workflow.getHandle(started.workflowId);
  expect((await handle.describe()).status.name).toBe('RUNNING');
});

it('a Temporal cancel request before funds is accepted like the cancel update', async () => {
  const { key, started } = await start('e2e-temporal-cancel');
  toRecord.push([`${PREFIX}temporal-cancel`, [started.workflowId]]);
  const handle = stack.client.workflow.getHandle(started.workflowId);
  await handle.cancel();
  const state = await eventually('CANCELLING phase', async () => {
    const s = await getPaymentState(stack.client, key);
    return s.phase === 'CANCELLING' ? s : null;
  });
  expect(state.cancel).toMatchObject({ decision: 'ACCEPTED', via: 'TEMPORAL_CANCEL' });
  expect((await handle.describe()).status.name).toBe('RUNNING');
});
