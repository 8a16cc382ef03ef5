// Money safety on the real stack (dev server + sandbox + worker + ingress): same key with another request is
// refused; a status the contract does not know reaches the entity and `xborder stuck`; a cancelled transfer
// leaves its funded payment alone; the entity continues as new; a signed
// webhook's final status that the service's GET does not bear out ends nothing and is listed by `xborder stuck`.
// With XBORDER_RECORD_HISTORIES=1 this file ADDS the replay histories of its scenarios (new files only):
//   XBORDER_RECORD_HISTORIES=1 npx jest test/e2e/money-safety.e2e.test.ts
import got from 'got';
import { findStuckPayments } from '../../src/client/stuck';
import { signWebhook } from '../../src/provider/webhook-signature';
import { type TransferResult } from '../../workflows/transfer/api';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  type PaymentOutcome,
  paymentStateQuery,
} from '../../workflows/payment/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import { recordRunHistory } from '../support/history-recorder';
import { recordNewHistories } from '../support/record-new-histories';
import type { LocalStack } from '../../src/cli/stack';
import {
  IdempotencyKeyReusedError,
  PaymentRequestInvalidError,
  startPayment,
  startTransfer,
} from '../../src/client/payments';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(120_000);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true, quoteValidityMs: 60_000 } });
});
afterAll(async () => {
  await stack?.close();
});

function request(reference: string, amount = 100, extra: Record<string, unknown> = {}) {
  return demoPaymentRequest(reference, amount, extra);
}

async function providerPaymentsWithReference(reference: string): Promise<string[]> {
  const found: string[] = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) found.push(p.id);
  return found;
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('not refused');
}

describe('same key, other request', () => {
  it('refuses a running payment key with another amount, naming the key; the same request attaches', async () => {
    const key = uniqueKey('e2e-samekey');
    const opts = { taskQueue: stack.taskQueue };
    const first = await startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts);
    if (first.created.outcome !== 'CREATED') throw new Error('not created');

    const error = await refusal(
      startPayment(stack.client, { paymentKey: key, request: request(key, 250) }, opts),
    );
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toMatchObject({ type: 'IDEMPOTENCY_KEY_REUSED', key, workflowId: `payment:${key}` });
    expect(String(error)).toContain(key);

    const again = await startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts);
    expect(again.created).toMatchObject({ providerPaymentId: first.created.providerPaymentId });
    expect(await providerPaymentsWithReference(key)).toEqual([first.created.providerPaymentId]);
  });

  it('refuses another request for the key of a closed payment that moved money; the same request gets its answer again', async () => {
    const key = uniqueKey('e2e-samekey-closed');
    const opts = { taskQueue: stack.taskQueue };
    // a provider payment was created and funded: the key is bound for good (a REJECTED payment that created nothing
    // frees its key instead: test/e2e/freed-keys.e2e.test.ts)
    const paid = { paymentKey: key, request: request(key, 100) };
    const first = await startPayment(stack.client, paid, opts);
    if (first.created.outcome !== 'CREATED') throw new Error('not created');
    await got.post(`${stack.sandbox.url}/sandbox/payments/${first.created.providerPaymentId}/fund`, {
      headers: stack.sandbox.controlHeaders,
      json: {},
    });
    expect((await first.result()).outcome).toBe('COMPLETED');

    const other = await refusal(
      startPayment(stack.client, { paymentKey: key, request: request(key, 120) }, opts),
    );
    expect(other).toBeInstanceOf(IdempotencyKeyReusedError);
    expect((other as IdempotencyKeyReusedError).fields).toEqual(['request.source.amount']);
    // a retry of a start whose answer was lost may find its payment closed; it gets the answer, without instructions
    const same = await startPayment(stack.client, paid, opts);
    expect(same.created).toMatchObject({
      outcome: 'CREATED',
      providerPaymentId: first.created.providerPaymentId,
      fundingInstructions: null,
      endedWith: 'COMPLETED',
    });
    expect(await providerPaymentsWithReference(key)).toEqual([first.created.providerPaymentId]);
  });

  it('a request refused before a start keeps its key free: the corrected request with the same key starts', async () => {
    const key = uniqueKey('e2e-fix-and-retry');
    const opts = { taskQueue: stack.taskQueue };
    const refused = await refusal(
      startPayment(
        stack.client,
        { paymentKey: key, request: request(key, 100, { paymentReason: 'OTHER' }) },
        opts,
      ),
    );
    expect(refused).toBeInstanceOf(PaymentRequestInvalidError);
    const fixed = await startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts);
    expect(fixed.created.outcome).toBe('CREATED');
  });

  it('a pull payment that completed before the same start was asked again: its answer, not a refusal', async () => {
    // The chaos storm's lost PULL payment: the first start reached Temporal, its answer was lost with the server,
    // the payment completed meanwhile; the backend's retry with the same key was told WorkflowExecutionAlreadyStarted.
    const key = uniqueKey('e2e-samekey-pull-closed');
    const opts = { taskQueue: stack.taskQueue };
    const pull = {
      ...request(key, 20),
      source: {
        currencyCode: 'USDC',
        amount: 20,
        rail: 'POLYGON',
        accountId: 'acc_demo_usdc_virtual',
      } as const,
    };
    const input = { paymentKey: key, request: pull, options: { reconcileEveryMs: 3_000 } };
    const first = await startPayment(stack.client, input, opts);
    if (first.created.outcome !== 'CREATED') throw new Error(`not created: ${JSON.stringify(first.created)}`);
    expect((await first.result()).outcome).toBe('COMPLETED');

    const again = await startPayment(stack.client, input, opts);
    // the same answer, without instructions to fund a payment that has ended
    expect(again.created).toEqual({ ...first.created, fundingInstructions: null, endedWith: 'COMPLETED' });
    expect((await again.result()).outcome).toBe('COMPLETED');
    expect(await providerPaymentsWithReference(key)).toEqual([first.created.providerPaymentId]);
    // another request for that key is still refused
    expect(
      await refusal(
        startPayment(stack.client, { ...input, request: { ...pull, reference: `${key}-other` } }, opts),
      ),
    ).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('refuses a transfer key with another payment request; the same request attaches', async () => {
    const key = uniqueKey('e2e-samekey-transfer');
    const opts = { taskQueue: stack.taskQueue };
    const input = (amount: number) => ({
      transferKey: key,
      customer: { customerId: 'cus_demo_individual' },
      account: { accountId: 'acc_demo_brl_bank' },
      payment: { request: request(key, amount) },
    });
    const first = await startTransfer(stack.client, input(100), opts);
    const error = await refusal(startTransfer(stack.client, input(101), opts));
    expect(error).toMatchObject({ type: 'IDEMPOTENCY_KEY_REUSED', key, workflowId: `transfer:${key}` });
    const again = await startTransfer(stack.client, input(100), opts);
    expect(again.firstExecutionRunId).toBe(first.firstExecutionRunId);
    await first.terminate('test over').catch(() => undefined);
    await stack.client.workflow
      .getHandle(`payment:${key}`)
      .terminate('test over')
      .catch(() => undefined);
  });
});

describe('values the contract does not know', () => {
  it('a webhook with an unknown status and an offset timestamp is taken, shown, and listed by xborder stuck', async () => {
    const key = uniqueKey('e2e-unknown');
    const started = await startPayment(
      stack.client,
      { paymentKey: key, request: request(key) },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED') throw new Error('not created');
    const id = started.created.providerPaymentId;
    // `created` comes before the payment follows the entity: the status changes once the entity has done its
    // first read and the payment follows it.
    const followed = stack.client.workflow.getHandle(providerPaymentWorkflowId(id));
    await eventually('the entity to have read the payment and to be followed by it', async () => {
      const s = await followed.query(providerPaymentSnapshotQuery).catch(() => null);
      if (!s?.payment || !s.subscribers.includes(started.workflowId)) return null;
      const pending = (await followed.describe()).raw.pendingActivities ?? [];
      return pending.length === 0 ? true : null;
    });
    // The service holds the payment as ON_HOLD (a status the spec does not name): its own webhook and its GET say so.
    // A push is only a trigger to read, so what the entity takes is what the GET answers; the webhook below (the same
    // state, timestamps written with an offset) is taken as such a trigger and borne out.
    await got.post(`${stack.sandbox.url}/sandbox/payments/${id}/hold`, {
      headers: stack.sandbox.controlHeaders,
      json: { status: 'ON_HOLD' },
    });
    const current = await stack.provider.payments.get(id);
    expect(current.status).toBe('ON_HOLD');
    const createdAt = String(current.lifecycle.createdAt).replace('Z', '+00:00');
    const event = {
      id: uniqueKey('evt_unknown'),
      type: 'payment.updated',
      createdAt: new Date().toISOString().replace('Z', '+00:00'),
      data: { ...current, lifecycle: { ...current.lifecycle, createdAt } },
    };
    const raw = JSON.stringify(event);
    const at = Math.floor(Date.now() / 1000);
    const response = await got.post(stack.ingress.webhookUrl, {
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(stack.webhookSecret, event.id, at, raw),
      },
      body: raw,
      throwHttpErrors: false,
    });
    expect(response.statusCode).toBe(200);
    const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(id));
    const snap = await eventually('the entity to take ON_HOLD', async () => {
      const s = await entity.query(providerPaymentSnapshotQuery);
      return s.payment?.status === 'ON_HOLD' ? s : null;
    });
    expect(snap.unknownValues).toEqual(['status ON_HOLD']);
    const listed = await eventually('xborder stuck to list it', async () => {
      const stuck = await findStuckPayments(stack.client);
      return stuck.find((s) => s.providerPaymentId === id) ?? null;
    });
    expect(listed).toMatchObject({ kind: 'UNKNOWN_PROVIDER_STATUS', providerStatus: 'ON_HOLD' });
    await stack.client.workflow.getHandle(started.workflowId).terminate('test over');
    await entity.terminate('test over');
  });
});

/** Adds the histories of these runs (or of the run each continued from) for the replay test, when recording. */
async function record(scenario: string, workflowIds: string[], previousRun = false) {
  for (const id of workflowIds) {
    const d = await stack.client.workflow.getHandle(id).describe();
    let runId = d.runId;
    if (previousRun) {
      const history = await stack.client.workflow.getHandle(id).fetchHistory();
      runId = String(
        history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? runId,
      );
    }
    recordRunHistory(stack.temporal.address, scenario, d.type, id, runId);
  }
}

describe('an outcome is never decided on a push alone', () => {
  it('a correctly signed webhook claiming COMPLETED for a payment the service holds as AWAITING_FUNDS ends nothing; xborder stuck lists it', async () => {
    const key = uniqueKey('e2e-forged');
    const started = await startPayment(
      stack.client,
      { paymentKey: key, request: request(key) },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED') throw new Error('not created');
    const id = started.created.providerPaymentId;
    const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(id));
    await eventually('the payment to follow its entity', async () => {
      const s = await entity.query(providerPaymentSnapshotQuery).catch(() => null);
      return s?.payment && s.subscribers.includes(started.workflowId) ? true : null;
    });
    // whoever holds the webhook secret can sign this; the sandbox still holds the payment as AWAITING_FUNDS
    const current = await stack.provider.payments.get(id);
    const now = new Date().toISOString();
    const event = {
      id: uniqueKey('evt_forged'),
      type: 'payment.updated',
      createdAt: now,
      data: {
        ...current,
        status: 'COMPLETED',
        lifecycle: { ...current.lifecycle, sentAt: now, completedAt: now },
      },
    };
    const raw = JSON.stringify(event);
    const at = Math.floor(Date.now() / 1000);
    const response = await got.post(stack.ingress.webhookUrl, {
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(stack.webhookSecret, event.id, at, raw),
      },
      body: raw,
      throwHttpErrors: false,
    });
    expect(response.statusCode).toBe(200); // the door lets it in: the signature is right
    const snap = await eventually('the entity to record the mismatch', async () => {
      const s = await entity.query(providerPaymentSnapshotQuery);
      return (s.pushMismatches?.length ?? 0) > 0 ? s : null;
    });
    expect(snap.pushMismatches).toEqual([
      { eventId: event.id, pushed: 'COMPLETED', read: 'AWAITING_FUNDS', at: expect.any(String) },
    ]);
    expect(snap.payment?.status).toBe('AWAITING_FUNDS');
    const payment = stack.client.workflow.getHandle(started.workflowId);
    expect((await payment.describe()).status.name).toBe('RUNNING');
    expect(await payment.query(paymentStateQuery)).toMatchObject({
      outcome: null,
      providerStatus: 'AWAITING_FUNDS',
    });
    const listed = await eventually('xborder stuck to list the entity', async () => {
      const stuck = await findStuckPayments(stack.client);
      return stuck.find((s) => s.workflowId === entity.workflowId) ?? null;
    });
    expect(listed).toMatchObject({
      kind: 'WEBHOOK_NOT_CONFIRMED',
      providerStatus: 'AWAITING_FUNDS',
      providerPaymentId: id,
    });
    await recordNewHistories(stack.client, stack.temporal.address, 'forged-final-push', [entity.workflowId]);
    await payment.terminate('test over');
    await entity.terminate('test over');
  });
});

/** Posts a webhook signed with the stack's secret (what anyone holding it can do), as the service would. */
async function postSigned(data: unknown): Promise<{ eventId: string; statusCode: number }> {
  const event = {
    id: uniqueKey('evt_pushed'),
    type: 'payment.updated',
    createdAt: new Date().toISOString(),
    data,
  };
  const raw = JSON.stringify(event);
  const at = Math.floor(Date.now() / 1000);
  const response = await got.post(stack.ingress.webhookUrl, {
    headers: {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(stack.webhookSecret, event.id, at, raw),
    },
    body: raw,
    throwHttpErrors: false,
  });
  return { eventId: event.id, statusCode: response.statusCode };
}

describe('a push is only a trigger to read, whatever it says', () => {
  it('a signed PENDING and a signed refundedAt the service does not bear out move nothing: no funds in, a cancel is still accepted', async () => {
    const key = uniqueKey('e2e-pushed');
    const started = await startPayment(
      stack.client,
      { paymentKey: key, request: request(key) },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED') throw new Error('not created');
    const id = started.created.providerPaymentId;
    const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(id));
    await eventually('the payment to follow its entity', async () => {
      const s = await entity.query(providerPaymentSnapshotQuery).catch(() => null);
      return s?.payment && s.subscribers.includes(started.workflowId) ? true : null;
    });
    const current = await stack.provider.payments.get(id);
    const pending = await postSigned({ ...current, status: 'PENDING' });
    const refunded = await postSigned({
      ...current,
      lifecycle: { ...current.lifecycle, refundedAt: new Date().toISOString() },
    });
    expect([pending.statusCode, refunded.statusCode]).toEqual([200, 200]); // the door lets them in: the signatures are right
    const snap = await eventually('the entity to judge both pushes', async () => {
      const s = await entity.query(providerPaymentSnapshotQuery);
      return (s.pushMismatches?.length ?? 0) >= 2 && (s.unconfirmed?.length ?? 0) === 0 ? s : null;
    });
    expect(snap.pushMismatches?.map((m) => [m.eventId, m.pushed, m.read]).sort()).toEqual(
      [
        [pending.eventId, 'PENDING', 'AWAITING_FUNDS'],
        [refunded.eventId, 'AWAITING_FUNDS', 'AWAITING_FUNDS'],
      ].sort(),
    );
    expect(snap.payment).toMatchObject({ status: 'AWAITING_FUNDS', lifecycle: { refundedAt: null } });
    const payment = stack.client.workflow.getHandle(started.workflowId);
    expect(await payment.query(paymentStateQuery)).toMatchObject({
      outcome: null,
      phase: 'AWAITING_FUNDS',
      providerStatus: 'AWAITING_FUNDS',
    });
    const cancelled = await payment.executeUpdate(cancelUpdate, { args: [{ reason: 'order cancelled' }] });
    expect(cancelled.cancel?.decision).toBe('ACCEPTED');
    await recordNewHistories(stack.client, stack.temporal.address, 'forged-pending-push', [
      entity.workflowId,
    ]);
    await payment.terminate('test over');
    await entity.terminate('test over');
  });
});

describe('cancelling a transfer whose payment was funded', () => {
  it('leaves the payment running to COMPLETED; the transfer reports it with cancelRequested', async () => {
    const key = uniqueKey('e2e-cancel-transfer');
    const transfer = await startTransfer(
      stack.client,
      {
        transferKey: key,
        customer: { customerId: 'cus_demo_individual' },
        account: { accountId: 'acc_demo_brl_bank' },
        payment: { request: request(key) },
      },
      { taskQueue: stack.taskQueue },
    );
    const payment = stack.client.workflow.getHandle(`payment:${key}`);
    const created = await eventually('the payment to be created', () =>
      payment.executeUpdate(awaitCreatedUpdate).catch(() => null),
    );
    if (created.outcome !== 'CREATED') throw new Error('not created');
    await got.post(`${stack.sandbox.url}/sandbox/payments/${created.providerPaymentId}/fund`, {
      headers: stack.sandbox.controlHeaders,
      json: {},
    });
    await transfer.cancel();
    const result = (await transfer.result()) as TransferResult;
    expect(result).toMatchObject({ outcome: 'COMPLETED', cancelRequested: true });
    expect(((await payment.result()) as PaymentOutcome).outcome).toBe('COMPLETED');
    // the payment and its entity were recorded as transfer-cancelled-while-paying; the transfer (PINNED) again on
    // this build, under a new name (its 0.1.0 history is in test/replay/archive/0.1.0)
    await record('b2-transfer-cancelled-while-paying', [transfer.workflowId]);
  });
});

describe('the providerPayment entity continues as new', () => {
  it('carries the payment and the seen events over to the next run', async () => {
    const key = uniqueKey('e2e-can');
    const p = await stack.provider.payments.create(request(key) as never, { idempotencyKey: key });
    const workflowId = providerPaymentWorkflowId(p.id);
    const send = (n: number) =>
      stack.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: stack.taskQueue,
        args: [{ providerPaymentId: p.id, continueAsNewAfterEvents: 20 }],
        signal: providerPaymentEventSignal,
        signalArgs: [{ eventId: `evt_${key}_${n}`, type: 'payment.updated', payment: p }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    const first = await send(0);
    for (let n = 1; n <= 12; n++) await send(n);
    const handle = stack.client.workflow.getHandle(workflowId);
    const snap = await eventually('a second run', async () => {
      const d = await handle.describe();
      if (d.runId === first.signaledRunId) return null;
      return handle.query(providerPaymentSnapshotQuery);
    });
    expect(snap.payment?.id).toBe(p.id);
    await record('entity-continue-as-new', [workflowId], true);
    await handle.terminate('test over');
  });
});
