// The stuck-payments gauge (src/client/stuck-gauge.ts) against a real dev server's visibility: payment
// workflows (no worker: they only need to be Running with our search attributes) counted by stuck kind, each once,
// on a metric meter; a payment that stops being stuck leaves its kind's count (every kind is set each time, 0 included).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { PrometheusRegistry } from '../../src/telemetry/prometheus-registry';
import { findStuckPayments } from '../../src/client/stuck';
import {
  startStuckPaymentsGauge,
  STUCK_METRIC_NAMES,
  stuckGaugeConfigFromEnv,
  type StuckGauge,
} from '../../src/client/stuck-gauge';
import {
  FundingDeadlineKey,
  PaymentPhaseKey,
  PaymentStatusKey,
  ProviderPaymentIdKey,
} from '../../workflows/search-attributes';
import { PUSH_MISMATCH_PHASE } from '../../workflows/provider-payment/push-confirmation';
import { createDevServerEnv, uniqueTaskQueue, uniqueWorkflowId } from '../support/temporal';
import { freePort } from '../support/ports';
import { generatedApiKey } from '../support/secrets';
import { PAYMENT_WORKFLOW_TYPE } from '../../workflows/payment/api';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE } from '../../workflows/provider-payment/api';

jest.setTimeout(120_000);

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createDevServerEnv();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

const HOUR = 3_600_000;

async function startPaymentLike(phase: string, fundingDeadline: Date): Promise<string> {
  const workflowId = uniqueWorkflowId('stuck-gauge');
  await env.client.workflow.start(PAYMENT_WORKFLOW_TYPE, {
    workflowId,
    taskQueue: uniqueTaskQueue('stuck-gauge'), // nobody polls it: the workflow stays Running as started
    args: [],
    typedSearchAttributes: new TypedSearchAttributes([
      { key: PaymentPhaseKey, value: phase },
      { key: FundingDeadlineKey, value: fundingDeadline },
    ]),
  });
  return workflowId;
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

it('counts running payments by stuck kind, each once, and follows a payment that stops being stuck', async () => {
  const now = Date.now();
  const pastDeadline = await startPaymentLike('QUOTE_EXPIRED', new Date(now - HOUR)); // fits two kinds: counted under the first
  await startPaymentLike('AWAITING_FUNDS', new Date(now - HOUR));
  await startPaymentLike('QUOTE_EXPIRED', new Date(now + 48 * HOUR));
  await startPaymentLike('IN_PROGRESS', new Date(now + 48 * HOUR));
  await startPaymentLike('AWAITING_FUNDS', new Date(now + 48 * HOUR)); // healthy: not counted

  const registry = new PrometheusRegistry();
  // IN_PROGRESS_TOO_LONG compares the start time: a limit of 1 s and a clock a minute ahead make that one stuck.
  const gauge: StuckGauge = startStuckPaymentsGauge({
    client: env.client,
    meter: registry,
    intervalMs: 300,
    inProgressLimitMs: 1_000,
    now: () => new Date(Date.now() + 60_000),
  });
  const count = (kind: string) => registry.value(STUCK_METRIC_NAMES.stuck, { kind });
  try {
    await eventually(
      'the gauge to count all four stuck payments',
      async () =>
        count('PAST_FUNDING_DEADLINE') === 2 &&
        count('QUOTE_EXPIRED_UNFUNDED') === 1 &&
        count('IN_PROGRESS_TOO_LONG') === 1,
    );
    expect(registry.value(STUCK_METRIC_NAMES.refreshed)).toBeGreaterThan(now / 1000);

    await env.client.workflow.getHandle(pastDeadline).terminate('test: no longer stuck');
    await eventually('PAST_FUNDING_DEADLINE to fall to 1', async () => count('PAST_FUNDING_DEADLINE') === 1);
    // The series are kept at their values; nothing else moved.
    expect(count('QUOTE_EXPIRED_UNFUNDED')).toBe(1);
    expect(registry.render()).toMatch(/xborder_stuck_payments\{kind="PAST_FUNDING_DEADLINE"\} 1/);
  } finally {
    await gauge.stop();
  }
});

it('lists an entity whose pushed final status its GET did not bear out as WEBHOOK_NOT_CONFIRMED; a healthy entity is not listed', async () => {
  const startEntityLike = async (flagged: boolean): Promise<string> => {
    const workflowId = uniqueWorkflowId('provider-payment:stuck');
    await env.client.workflow.start(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: uniqueTaskQueue('stuck-entity'), // nobody polls it: the workflow stays Running as started
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: PaymentStatusKey, value: 'AWAITING_FUNDS' },
        { key: ProviderPaymentIdKey, value: workflowId },
        ...(flagged ? [{ key: PaymentPhaseKey, value: PUSH_MISMATCH_PHASE }] : []),
      ]),
    });
    return workflowId;
  };
  const flagged = await startEntityLike(true);
  const healthy = await startEntityLike(false);
  try {
    let listed: Awaited<ReturnType<typeof findStuckPayments>> = [];
    await eventually('the flagged entity to be listed', async () => {
      listed = await findStuckPayments(env.client);
      return listed.some((s) => s.workflowId === flagged);
    });
    expect(listed.find((s) => s.workflowId === flagged)).toMatchObject({
      kind: 'WEBHOOK_NOT_CONFIRMED',
      providerStatus: 'AWAITING_FUNDS',
    });
    expect(listed.some((s) => s.workflowId === healthy)).toBe(false);
  } finally {
    for (const id of [flagged, healthy])
      await env.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
  }
});

it('a failed count is logged and not thrown; refresh() reports it to a direct caller', async () => {
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) } as unknown as Parameters<
    typeof startStuckPaymentsGauge
  >[0]['logger'];
  // the gauge counts (CountWorkflowExecutions) and `xborder stuck` lists: visibility down fails both
  const unavailable = () => {
    throw new Error('visibility unavailable');
  };
  const broken = {
    workflow: { list: unavailable, count: async () => unavailable() },
  } as unknown as TestWorkflowEnvironment['client'];
  const gauge = startStuckPaymentsGauge({
    client: broken,
    meter: new PrometheusRegistry(),
    intervalMs: 60_000,
    inProgressLimitMs: HOUR,
    logger,
  });
  await gauge.stop(); // waits for the first count
  expect(warnings).toEqual(['stuck-payments gauge: count failed']);
  await expect(gauge.refresh()).rejects.toThrow(/visibility unavailable/);
});

it('reads its interval and limit from the environment; 0 turns it off', () => {
  expect(stuckGaugeConfigFromEnv({})).toEqual({ intervalMs: 60_000, inProgressLimitMs: 24 * HOUR });
  expect(
    stuckGaugeConfigFromEnv({
      XBORDER_STUCK_GAUGE_INTERVAL_MS: '0',
      XBORDER_STUCK_IN_PROGRESS_LIMIT_MS: '3600000',
    }),
  ).toEqual({ intervalMs: 0, inProgressLimitMs: HOUR });
  expect(() => stuckGaugeConfigFromEnv({ XBORDER_STUCK_GAUGE_INTERVAL_MS: 'soon' })).toThrow(
    /XBORDER_STUCK_GAUGE_INTERVAL_MS/,
  );
});

it('the worker process (`xborder worker`) exports the gauge on its Prometheus endpoint', async () => {
  const root = path.resolve(__dirname, '..', '..');
  const address = `127.0.0.1:${await freePort()}`;
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['workers/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: tsx and node stop together
    env: {
      PATH: process.env.PATH,
      TEMPORAL_ADDRESS: env.address,
      XBORDER_TASK_QUEUE: uniqueTaskQueue('stuck-gauge-worker'),
      XBORDER_PROVIDER_URL: 'http://127.0.0.1:9',
      XBORDER_PROVIDER_API_KEY: generatedApiKey(),
      XBORDER_METRICS_ADDRESS: address,
      XBORDER_ENSURE_SCHEDULES: 'false',
      XBORDER_STUCK_GAUGE_INTERVAL_MS: '500',
      XBORDER_LOG_LEVEL: 'ERROR',
      XBORDER_CODEC_KEYS_FILE: process.env.XBORDER_CODEC_KEYS_FILE, // the test key (test/support/jest-setup.ts)
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    let text = '';
    await eventually(
      `the gauge at http://${address}/metrics (stderr: ${stderr})`,
      async () => {
        text = await fetch(`http://${address}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        return text.includes(`${STUCK_METRIC_NAMES.refreshed} `);
      },
      90_000,
    );
    // The payments of the first test are still stuck (24 h limit here: the in-progress one is not).
    expect(text).toMatch(/xborder_stuck_payments\{[^}]*kind="PAST_FUNDING_DEADLINE"[^}]*\} 1/);
    expect(text).toMatch(/xborder_stuck_payments\{[^}]*kind="IN_PROGRESS_TOO_LONG"[^}]*\} 0/);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
});

it('the stuck-gauge process (compose service stuck-gauge) exports the counts with no payload key and no provider key', async () => {
  const root = path.resolve(__dirname, '..', '..');
  const address = `127.0.0.1:${await freePort()}`;
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['workers/stuck-gauge-main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    // nothing but Temporal, the deployment's task queue and the metrics address: no XBORDER_CODEC_KEYS(_FILE), no provider
    env: {
      PATH: process.env.PATH,
      TEMPORAL_ADDRESS: env.address,
      XBORDER_METRICS_ADDRESS: address,
      XBORDER_STUCK_GAUGE_INTERVAL_MS: '500',
      XBORDER_LOG_LEVEL: 'ERROR',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    let text = '';
    await eventually(
      `the gauge at http://${address}/metrics (stderr: ${stderr})`,
      async () => {
        text = await fetch(`http://${address}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        return text.includes(`${STUCK_METRIC_NAMES.refreshed} `);
      },
      90_000,
    );
    // every kind counted (the first test's payments make PAST_FUNDING_DEADLINE 1 when the file runs whole)
    expect(text).toMatch(/xborder_stuck_payments\{[^}]*kind="PAST_FUNDING_DEADLINE"[^}]*\} \d+/);
    expect(text).toMatch(/xborder_stuck_payments\{[^}]*kind="WAITING_FOR_ITS_BUILD"[^}]*\} 0/);
    // its own cost, a dozen calls whatever the payments (no deployment on this server: the counts alone)
    expect(Number(/xborder_stuck_gauge_calls(?:\{[^}]*\})? (\d+)/.exec(text)?.[1])).toBeLessThanOrEqual(15);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
});
