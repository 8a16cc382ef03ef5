// The production engine, run: Temporal on PostgreSQL as temporal-docker/compose.yaml
// describes it (test/cluster/temporal-cluster.ts), with the stack of the e2e tests on top (sandbox, ingress,
// worker: test/e2e/stack-support.ts reuses the server listening on the port). The payment flows, the
// stuck-payment queries on SQL visibility (`xborder stuck`) and the quote-refresh Schedule.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import got from 'got';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { LocalStack } from '../../src/cli/stack';
import { runDemoTransfer } from '../../src/cli/demo';
import { readRateBoard } from '../../src/client/indicative-quote';
import { getPaymentState, PaymentRequestInvalidError, startPayment } from '../../src/client/payments';
import { ensureSchedules, quoteRefreshConfigFromEnv } from '../../src/client/schedules';
import { findStuckPayments, stuckQueries } from '../../src/client/stuck';
import { paymentWorkflowId } from '../../workflows/payment/api';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { ROOT } from '../docker/compose-model';
import { eventually, startTestStack, uniqueKey } from '../e2e/stack-support';
import { startTemporalCluster, type TemporalCluster } from './temporal-cluster';
import { demoPaymentRequest } from '../support/demo-payment-request';

// The first run on a fresh machine builds the server (about 7 minutes; cached in ~/.cache/xborder after).
jest.setTimeout(180_000);

let cluster: TemporalCluster;
let stack: LocalStack;

beforeAll(async () => {
  cluster = await startTemporalCluster();
  stack = await startTestStack({
    temporalPort: cluster.port,
    // The last step is slow enough that a funded payment is seen IN_PROGRESS by the stuck query.
    sandbox: {
      demoData: true,
      quoteValidityMs: 8_000,
      stepDelaysMs: { toProcessing: 300, toSent: 300, toCompleted: 10_000 },
    },
  });
}, 900_000);
afterAll(async () => {
  await stack?.close();
  await cluster?.stop();
});

function request(reference: string) {
  return demoPaymentRequest(reference);
}

async function sandboxPaymentsWithReference(reference: string) {
  const found: Array<{ id: string; status: string }> = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) found.push(p);
  return found;
}

const fund = (id: string, body: Record<string, unknown> = {}) =>
  got.post(`${stack.sandbox.url}/sandbox/payments/${id}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: body,
  });

async function created(key: string, reference = key) {
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: request(reference) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`${key} not created: ${JSON.stringify(started.created)}`);
  return { ...started, providerPaymentId: started.created.providerPaymentId, quote: started.created.quote };
}

const phaseOf = (key: string) => getPaymentState(stack.client, paymentWorkflowId(key)).then((s) => s.phase);

it('is the cluster compose describes: server version, namespace and our search attributes with their types', async () => {
  const connection = await Connection.connect({ address: cluster.address });
  try {
    const info = await connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toBe(cluster.version);
    const listed = await connection.operatorService.listSearchAttributes({ namespace: cluster.namespace });
    const INDEXED: Record<string, temporal.api.enums.v1.IndexedValueType> = {
      KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
    };
    for (const key of ALL_SEARCH_ATTRIBUTE_KEYS)
      expect([key.name, listed.customAttributes?.[key.name]]).toEqual([key.name, INDEXED[key.type]]);
    // temporal-docker/dynamicconfig/docker.yaml holds only keys this server version knows.
    expect(readFileSync(cluster.serverLog, 'utf8')).not.toMatch(/unregistered key/);
  } finally {
    await connection.close();
  }
});

it('runs the demo transfer of npm start: onboard → register → pay → fund → COMPLETED', async () => {
  const { outcome } = await runDemoTransfer(stack, { log: () => undefined, uiLink: (id) => id });
  expect(outcome).toBe('COMPLETED');
});

it('completes a funded payment with exactly one provider payment; a second start attaches', async () => {
  const key = uniqueKey('cl-complete');
  const started = await created(key);
  const again = await startPayment(
    stack.client,
    { paymentKey: key, request: request(key) },
    { taskQueue: stack.taskQueue },
  );
  expect(again.created).toMatchObject({ providerPaymentId: started.providerPaymentId });
  await fund(started.providerPaymentId);
  expect((await started.result()).outcome).toBe('COMPLETED');
  expect(await sandboxPaymentsWithReference(key)).toEqual([
    expect.objectContaining({ id: started.providerPaymentId, status: 'COMPLETED' }),
  ]);
});

it('expiry, late funding, refund after expiry and payout failure end as on the dev server', async () => {
  const late = await created(uniqueKey('cl-late'));
  const refund = await created(uniqueKey('cl-refund'));
  const failKey = uniqueKey('cl-fail');
  const fail = await created(failKey, 'FAIL:INVALID_EXTERNAL_ACCOUNT_NUMBER');
  await fund(fail.providerPaymentId);
  const lateKey = late.workflowId.replace(/^payment:/, '');
  const refundKey = refund.workflowId.replace(/^payment:/, '');
  await eventually('QUOTE_EXPIRED phases', async () =>
    (await phaseOf(lateKey)) === 'QUOTE_EXPIRED' && (await phaseOf(refundKey)) === 'QUOTE_EXPIRED'
      ? true
      : null,
  );
  await fund(late.providerPaymentId, {
    sentAt: new Date(Date.parse(late.quote.expiresAt) - 1_000).toISOString(),
  });
  await fund(refund.providerPaymentId);
  expect((await late.result()).outcome).toBe('COMPLETED');
  expect(await refund.result()).toMatchObject({
    outcome: 'REFUNDED',
    code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
  });
  expect(await fail.result()).toMatchObject({ outcome: 'FAILED', code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' });
});

it('refuses a payment that breaks the contract before anything is created', async () => {
  const key = uniqueKey('cl-reject');
  // refused by startPayment itself: no workflow, nothing sent
  const refused = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: {
        ...request(key),
        paymentReason: 'OTHER' as never /* refused: what a JavaScript caller could send */,
      },
    },
    { taskQueue: stack.taskQueue },
  ).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(PaymentRequestInvalidError);
  expect(await sandboxPaymentsWithReference(key)).toEqual([]);
});

it('tracks a PAYIN and its automatic conversion (webhook-started entities)', async () => {
  const deposit = await got
    .post(`${stack.sandbox.url}/sandbox/accounts/acc_demo_usd_autoconvert/deposit`, {
      headers: stack.sandbox.controlHeaders,
      json: { amount: 250 },
    })
    .json<Record<string, unknown>>();
  const ids = [...new Set(JSON.stringify(deposit).match(/pay_[A-Za-z0-9_-]+/g) ?? [])];
  const roles = await eventually('entities for the PAYIN and the conversion', async () => {
    const found: string[] = [];
    for (const id of ids)
      found.push(
        (
          await stack.client.workflow
            .getHandle(providerPaymentWorkflowId(id))
            .query(providerPaymentSnapshotQuery)
        ).role,
      );
    return found.includes('PAYIN') && found.includes('CONVERSION') ? found : null;
  });
  expect(roles).toEqual(expect.arrayContaining(['PAYIN', 'CONVERSION']));
});

describe('stuck payments on SQL visibility', () => {
  it('each query of findStuckPayments answers on PostgreSQL and finds its payment', async () => {
    // One payment per kind: unfunded past its quote; then one funded and still in progress (10 s to COMPLETED).
    const expired = await created(uniqueKey('cl-stuck-expired'));
    const expiredKey = expired.workflowId.replace(/^payment:/, '');
    await eventually('QUOTE_EXPIRED', async () =>
      (await phaseOf(expiredKey)) === 'QUOTE_EXPIRED' ? true : null,
    );
    const inProgress = await created(uniqueKey('cl-stuck-progress'));
    await fund(inProgress.providerPaymentId);
    const progressKey = inProgress.workflowId.replace(/^payment:/, '');
    await eventually('IN_PROGRESS', async () =>
      (await phaseOf(progressKey)) === 'IN_PROGRESS' ? true : null,
    );
    // Visibility is eventually consistent: the search attributes reach PostgreSQL after the workflow task.
    const now = new Date(Date.now() + 10 * 86_400_000); // past the 3-business-day funding deadline
    const kindOf = async (at: Date, limitMs: number) => {
      const stuck = await findStuckPayments(stack.client, { now: at, inProgressLimitMs: limitMs });
      return new Map(stuck.map((s) => [s.workflowId, s]));
    };
    const today = await eventually('both listed', async () => {
      const found = await kindOf(new Date(), 1);
      return found.has(expired.workflowId) && found.has(inProgress.workflowId) ? found : null;
    });
    expect(today.get(expired.workflowId)).toMatchObject({
      kind: 'QUOTE_EXPIRED_UNFUNDED',
      phase: 'QUOTE_EXPIRED',
      providerPaymentId: expired.providerPaymentId,
    });
    expect(today.get(inProgress.workflowId)).toMatchObject({
      kind: 'IN_PROGRESS_TOO_LONG',
      phase: 'IN_PROGRESS',
    });
    const later = await kindOf(now, 86_400_000);
    expect(later.get(expired.workflowId)?.kind).toBe('PAST_FUNDING_DEADLINE'); // Datetime comparison on SQL
    // Every query string is accepted by SQL visibility (IN, =, <, Datetime and StartTime comparisons).
    for (const query of Object.values(stuckQueries({ now })))
      await expect(stack.client.workflow.count(query)).resolves.toBeDefined();
    await inProgress.result();
  });

  it('`xborder stuck --json` lists them against the cluster (TEMPORAL_ADDRESS)', async () => {
    const expired = await created(uniqueKey('cl-stuck-cli'));
    const key = expired.workflowId.replace(/^payment:/, '');
    await eventually('QUOTE_EXPIRED', async () => ((await phaseOf(key)) === 'QUOTE_EXPIRED' ? true : null));
    const listed = await eventually(
      'the CLI to list it',
      async () => {
        // exit code 1: stuck payments were found (docs/operations.md, "The `xborder` command"); 0 would mean none yet
        const out = await runCli(
          ['stuck', '--json'],
          { TEMPORAL_ADDRESS: cluster.address, TEMPORAL_NAMESPACE: cluster.namespace },
          [0, 1],
        );
        const rows = JSON.parse(out) as Array<{ workflowId: string; kind: string }>;
        return rows.find((r) => r.workflowId === expired.workflowId) ?? null;
      },
      60_000,
    );
    expect(listed.kind).toBe('QUOTE_EXPIRED_UNFUNDED');
  });
});

it('the quote-refresh Schedule fires on the cluster and fills the rate board from the sandbox', async () => {
  const scheduleId = uniqueKey('cl-quote-refresh');
  const boardWorkflowId = uniqueKey('cl-rate-board');
  const schedule = await ensureSchedules(stack.client, {
    ...quoteRefreshConfigFromEnv({}),
    taskQueue: stack.taskQueue,
    scheduleId,
    boardWorkflowId,
    intervalMs: 2_000,
    pauseBetweenCallsMs: 50,
  });
  try {
    expect(schedule.created).toBe(true);
    const entries = await eventually(
      'rates on the board',
      async () => {
        const board = await readRateBoard(stack.client, boardWorkflowId);
        return board.length >= 5 ? board : null;
      },
      90_000,
    );
    expect(entries.length).toBe(5);
    const described = await schedule.handle.describe();
    expect(described.info.recentActions.length).toBeGreaterThanOrEqual(1);
  } finally {
    await schedule.handle.delete();
    await stack.client.workflow
      .getHandle(boardWorkflowId)
      .terminate('test over')
      .catch(() => undefined);
  }
});

function runCli(args: string[], env: Record<string, string>, okCodes: number[] = [0]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'xborder.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code !== null && okCodes.includes(code)
        ? resolve(out)
        : reject(new Error(`xborder ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}
