// End to end: a real Temporal dev server + the sandbox + the worker + the ingress (the stack of npm start).
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { getPaymentState, PaymentRequestInvalidError, startPayment } from '../../src/client/payments';
import { signWebhook } from '../../src/provider/webhook-signature';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { providerCustomerWorkflowId } from '../../workflows/provider-customer/api';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import { runDemoTransfer } from '../../src/cli/demo';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { recordHistories } from '../support/history-recorder';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { describeWorkerDeployment, makeCurrentIfNone } from '../../src/client/worker-deployments';
import { DEFAULT_DEPLOYMENT_NAME } from '../../workers/config';
import { packageVersion } from '../../src/support/package-root';

/** Workflows whose histories `npm run record-histories` keeps for the replay test, by scenario. */
const toRecord: Array<[scenario: string, workflowIds: string[]]> = [];
/**
 * Scenario name prefix for a new build's histories (histories are added to, never re-recorded): `b2-` recorded
 * build 0.2.0's, `b3-` build 0.3.0's (older builds' are in test/replay/archive/<build>/). With a prefix, only the
 * PINNED workflows' histories are recorded (a new build archives those; the entities' histories of these scenarios
 * exist already and must still replay).
 */
const PREFIX = process.env.XBORDER_HISTORY_PREFIX ?? '';
const isEntity = (id: string) =>
  id.startsWith(providerPaymentWorkflowId('')) || id.startsWith(providerCustomerWorkflowId(''));
const recorded = (ids: string[]) => (PREFIX ? ids.filter((id) => !isEntity(id)) : ids);

jest.setTimeout(120_000);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true, quoteValidityMs: 8_000 } }); // short enough to test expiry, long enough to fund in time on a loaded machine
});
afterAll(async () => {
  for (const [scenario, ids] of toRecord)
    await recordHistories(stack.client, stack.temporal.address, scenario, ids);
  await stack?.close();
});

function request(reference: string, extra: Record<string, unknown> = {}) {
  return demoPaymentRequest(reference, 100, extra);
}

async function sandboxPaymentsWithReference(
  reference: string,
): Promise<Array<{ id: string; status: string }>> {
  const found: Array<{ id: string; status: string }> = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) found.push(p);
  return found;
}

async function fund(providerPaymentId: string, body: Record<string, unknown> = {}) {
  await got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: body,
  });
}

it('runs the demo transfer of npm start: onboard → register → pay → fund → COMPLETED', async () => {
  const lines: string[] = [];
  const { outcome, workflowIds } = await runDemoTransfer(stack, {
    log: (l) => lines.push(l),
    uiLink: (id) => id,
  });
  expect(outcome).toBe('COMPLETED');
  toRecord.push([`${PREFIX}demo`, recorded(workflowIds)]);
  // Every push waits for the entity's read, and one read judges every push held before it: under load the statuses
  // on the way (PROCESSING, SENT) may be read past, so what is shown is the service's order, ending COMPLETED.
  const shown = lines.flatMap((l) => /status \S+: \S+ → (\S+)/.exec(l)?.slice(1) ?? []);
  expect(shown[shown.length - 1]).toBe('COMPLETED');
  const order = ['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'COMPLETED'];
  expect(shown.map((st) => order.indexOf(st))).toEqual(
    [...shown.map((st) => order.indexOf(st))].sort((x, y) => x - y),
  );
  expect(shown.every((st) => order.includes(st))).toBe(true);
  // what the recipient gets, and the fee with its currency, next to the rate
  expect(lines.join('\n')).toMatch(
    /quote: rate [\d.]+, valid until \S+; the recipient gets [\d.]+ BRL; fee [\d.]+ USDC/,
  );
  // "transfer done" comes after the payment's last status, not before it
  const done = lines.findIndex((l) => l.includes('transfer done'));
  const completed = lines.findIndex((l) => /status .* → COMPLETED/.test(l));
  expect(done).toBeGreaterThan(completed);
});

it('completes a funded payment, with exactly one provider payment for the workflow', async () => {
  const key = uniqueKey('e2e-complete');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  expect(started.created.outcome).toBe('CREATED');
  if (started.created.outcome !== 'CREATED') return;
  // A second start with the same key attaches to the first: same provider payment, no second one.
  const again = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  expect(again.created).toMatchObject({ providerPaymentId: started.created.providerPaymentId });
  await fund(started.created.providerPaymentId);
  const result = await started.result();
  expect(result.outcome).toBe('COMPLETED');
  // the stack's payloads are encrypted (the codec, with the test key): recorded as an encrypted-* history
  toRecord.push([`encrypted-${PREFIX}payout-completed`, [started.workflowId]]);
  expect(await sandboxPaymentsWithReference(key)).toEqual([
    expect.objectContaining({ id: started.created.providerPaymentId, status: 'COMPLETED' }),
  ]);
});

it('honours a late funding notice for funds sent before the quote expired', async () => {
  const key = uniqueKey('e2e-late');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  const sentAt = new Date(Date.parse(started.created.quote.expiresAt) - 1_000).toISOString();
  await eventually('QUOTE_EXPIRED phase', async () => {
    const state = await getPaymentState(stack.client, paymentWorkflowId(key));
    return state.phase === 'QUOTE_EXPIRED' ? state : null;
  });
  await fund(started.created.providerPaymentId, { sentAt });
  const result = await started.result();
  expect(result.outcome).toBe('COMPLETED');
  toRecord.push([`${PREFIX}late-funding`, [started.workflowId]]);
});

it('ends REFUNDED with FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED when funds were sent after expiry', async () => {
  const key = uniqueKey('e2e-refund');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  await eventually('QUOTE_EXPIRED phase', async () => {
    const state = await getPaymentState(stack.client, paymentWorkflowId(key));
    return state.phase === 'QUOTE_EXPIRED' ? state : null;
  });
  await fund(started.created.providerPaymentId);
  const result = await started.result();
  expect(result).toMatchObject({ outcome: 'REFUNDED', code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' });
  toRecord.push([`${PREFIX}refund-after-expiry`, [started.workflowId]]);
});

it('ends FAILED with the provider failure code of a payout', async () => {
  const key = uniqueKey('e2e-fail');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request('FAIL:INVALID_EXTERNAL_ACCOUNT_NUMBER') },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  await fund(started.created.providerPaymentId);
  const result = await started.result();
  expect(result).toMatchObject({ outcome: 'FAILED', code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' });
  toRecord.push([`${PREFIX}payout-failed`, [started.workflowId]]);
});

it('refuses a payment that breaks the contract before anything is created', async () => {
  const key = uniqueKey('e2e-reject');
  // refused by startPayment itself: no workflow, nothing sent, one typed error naming the field
  const refused = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key, { paymentReason: 'OTHER' }) },
    { taskQueue: stack.taskQueue },
  ).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(PaymentRequestInvalidError);
  expect((refused as PaymentRequestInvalidError).violations.map((v) => v.path)).toContain(
    'request.paymentReason',
  );
  expect(await sandboxPaymentsWithReference(key)).toEqual([]);
});

it("a corridor the service does not publish comes back REJECTED naming the request's field (destination.rail), not the rate query's", async () => {
  const key = uniqueKey('e2e-corridor');
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: request(key, {
        destination: { currencyCode: 'NGN', rail: 'LOCAL', accountId: 'acc_demo_brl_bank' },
      }),
    },
    { taskQueue: stack.taskQueue },
  );
  expect(started.created).toMatchObject({
    outcome: 'REJECTED',
    violations: [expect.objectContaining({ path: 'destination.rail', rule: 'CORRIDOR_UNSUPPORTED' })],
  });
  expect(await sandboxPaymentsWithReference(key)).toEqual([]);
});

it('tracks a PAYIN and its automatic conversion that nobody here started', async () => {
  const deposit = await got
    .post(`${stack.sandbox.url}/sandbox/accounts/acc_demo_usd_autoconvert/deposit`, {
      headers: stack.sandbox.controlHeaders,
      json: { amount: 250 },
    })
    .json<Record<string, unknown>>();
  const ids = JSON.stringify(deposit).match(/pay_[A-Za-z0-9_-]+/g) ?? [];
  expect(ids.length).toBeGreaterThanOrEqual(2);
  const roles = await eventually('entities for the PAYIN and the conversion', async () => {
    const found: string[] = [];
    for (const id of new Set(ids)) {
      const snap = await stack.client.workflow
        .getHandle(providerPaymentWorkflowId(id))
        .query(providerPaymentSnapshotQuery);
      found.push(snap.role);
    }
    return found.includes('PAYIN') && found.includes('CONVERSION') ? found : null;
  });
  expect(roles).toEqual(expect.arrayContaining(['PAYIN', 'CONVERSION']));
});

describe('webhooks at the ingress', () => {
  function signedEvent(event: Record<string, unknown>, secret = stack.webhookSecret) {
    const raw = JSON.stringify(event);
    const id = String(event.id);
    const at = Math.floor(Date.now() / 1000);
    return {
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(secret, id, at, raw),
      },
      raw,
    };
  }

  it('refuses a forged webhook (401) and starts no workflow', async () => {
    const fakeId = uniqueKey('pay_forged');
    const { headers, raw } = signedEvent(
      {
        id: uniqueKey('evt'),
        type: 'payment.updated',
        createdAt: new Date().toISOString(),
        data: { id: fakeId, status: 'COMPLETED' },
      },
      'whsec_' + Buffer.from('not-the-secret-at-all-000000').toString('base64'),
    );
    const response = await got.post(stack.ingress.webhookUrl, { headers, body: raw, throwHttpErrors: false });
    expect(response.statusCode).toBe(401);
    await expect(
      stack.client.workflow.getHandle(providerPaymentWorkflowId(fakeId)).describe(),
    ).rejects.toThrow(/not found/i);
  });

  it('drops a duplicate and ignores an out-of-order older status', async () => {
    const key = uniqueKey('e2e-dup');
    const started = await startPayment(
      stack.client,
      { paymentKey: key, request: request(key) },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED') throw new Error('not created');
    const providerId = started.created.providerPaymentId;
    await fund(providerId);
    expect((await started.result()).outcome).toBe('COMPLETED');

    const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(providerId));
    const before = await entity.query(providerPaymentSnapshotQuery);
    const stale = await stack.provider.payments.get(providerId);
    const old = { ...stale, status: 'PROCESSING' };
    const event = {
      id: uniqueKey('evt_replayed'),
      type: 'payment.updated',
      createdAt: new Date().toISOString(),
      data: old,
    };
    const first = signedEvent(event);
    const r1 = await got.post(stack.ingress.webhookUrl, {
      headers: first.headers,
      body: first.raw,
      throwHttpErrors: false,
    });
    expect(r1.statusCode).toBe(200);
    const r2 = await got.post(stack.ingress.webhookUrl, {
      headers: first.headers,
      body: first.raw,
      throwHttpErrors: false,
    });
    expect(JSON.parse(r2.body)).toMatchObject({ code: 'DUPLICATE' });
    const after = await eventually('the entity to see the replayed event', async () => {
      const snap = await entity.query(providerPaymentSnapshotQuery);
      return snap.seenEventIds > before.seenEventIds ? snap : null;
    });
    expect(after.seenEventIds).toBe(before.seenEventIds + 1);
    expect(after.payment?.status).toBe('COMPLETED');
  });
});

it('the stack of npm start runs a versioned worker: its build is made current, and a payment runs PINNED on it', async () => {
  // a fresh stack: the deployment had no current build, so the worker's build (derived from its workflow bundle:
  // `<version>+<sha256 of the bundle, 12 hex>`, never the package version alone) became it
  const buildId = stack.worker!.version!.buildId;
  expect(buildId).toBe(`${packageVersion()}+${stack.worker!.bundleDigest.slice(0, 12)}`);
  expect(stack.deployment).toEqual({
    action: 'made-current',
    deploymentName: DEFAULT_DEPLOYMENT_NAME,
    buildId,
  });
  expect(await describeWorkerDeployment(stack.client, DEFAULT_DEPLOYMENT_NAME)).toMatchObject({
    currentBuildId: buildId,
    rampingBuildId: null,
  });
  // starting the stack's worker again (a restart) leaves it current and says so; it never moves current itself
  expect(
    await makeCurrentIfNone(stack.client, { deploymentName: DEFAULT_DEPLOYMENT_NAME, buildId }),
  ).toMatchObject({ action: 'already-current' });
  expect(
    await makeCurrentIfNone(
      stack.client,
      { deploymentName: DEFAULT_DEPLOYMENT_NAME, buildId: 'another-build' },
      { timeoutMs: 0 },
    ),
  ).toEqual({
    action: 'other-current',
    deploymentName: DEFAULT_DEPLOYMENT_NAME,
    buildId: 'another-build',
    currentBuildId: buildId,
  });

  const key = uniqueKey('e2e-versioned');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const versioning = async (workflowId: string) => {
    const info = (await stack.client.workflow.getHandle(workflowId).describe()).raw.workflowExecutionInfo
      ?.versioningInfo;
    return {
      behavior: Number(info?.behavior),
      deploymentName: info?.deploymentVersion?.deploymentName,
      buildId: info?.deploymentVersion?.buildId,
    };
  };
  const onBuild = { deploymentName: DEFAULT_DEPLOYMENT_NAME, buildId };
  expect(await versioning(started.workflowId)).toEqual({ behavior: 1 /* PINNED */, ...onBuild });
  expect(await versioning(providerPaymentWorkflowId(started.created.providerPaymentId))).toEqual({
    behavior: 2 /* AUTO_UPGRADE */,
    ...onBuild,
  });
  await stack.client.workflow.getHandle(started.workflowId).terminate('test done');
});
