// The worker runtime's telemetry end to end, in a child process (a Runtime is installed once per process;
// jest's setup installs its own): Prometheus text from the runtime with the Temporal worker metrics and our
// counters (payments by outcome through the workflow interceptor, provider errors by type through the
// activity interceptor, webhook events), and JSON logs of the workflow and activity loggers with personal
// data and secrets redacted.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../support/ports';
import { METRIC_NAMES } from '../../src/telemetry/metrics';
import { PAYMENTS_METRIC } from '../../workflows/payment-metrics-interceptor';

const root = path.resolve(__dirname, '..', '..');
let child: ChildProcess | undefined;
let stdout = '';
let metricsText = '';

beforeAll(async () => {
  const address = `127.0.0.1:${await freePort()}`;
  child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    ['test/telemetry/fixtures/runtime-worker.ts', address],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child not ready in 90 s; stderr: ${stderr}`)), 90_000);
    child!.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /READY (\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child!.once('exit', (code) => reject(new Error(`child exited ${code}; stderr: ${stderr}`)));
  });
  expect(url).toBe(`http://${address}/metrics`);
  const res = await fetch(url);
  expect(res.status).toBe(200);
  metricsText = await res.text();
}, 120_000);

afterAll(() => {
  // Closing stdin ends the child; the group signal also takes tsx's node process and the test server along.
  child?.stdin?.end();
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

function series(name: string): string[] {
  return metricsText.split('\n').filter((l) => l.startsWith(`${name}{`));
}

describe('Prometheus endpoint of the worker runtime (XBORDER_METRICS_ADDRESS)', () => {
  it('exports the Temporal worker metrics', () => {
    expect(series('temporal_workflow_completed').join('\n')).toMatch(/workflow_type="payment".*\} 2$/);
    expect(series('temporal_activity_execution_failed').join('\n')).toMatch(
      /activity_type="failingProviderCall"/,
    );
  });

  it('counts payments by outcome (workflow interceptor) and provider errors by type (activity interceptor)', () => {
    expect(PAYMENTS_METRIC).toBe(METRIC_NAMES.payments);
    expect(series(METRIC_NAMES.payments)).toEqual([expect.stringMatching(/outcome="FAILED".*\} 2$/)]);
    expect(series(METRIC_NAMES.providerErrors)).toEqual([
      expect.stringMatching(/activityType="failingProviderCall".*type="RATE_LIMITED"\} 2$/),
    ]);
    expect(series(METRIC_NAMES.webhookEvents)).toEqual([expect.stringMatching(/result="duplicate"\} 1$/)]);
  });
});

describe('JSON logs of the runtime logger', () => {
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('writes workflow and activity log calls as JSON lines with their context', () => {
    const wf = lines().find((l) => l.message === 'payment for customer');
    const act = lines().find((l) => l.message === 'calling the provider');
    expect(wf).toMatchObject({
      level: 'INFO',
      sdkComponent: 'workflow',
      workflowType: 'payment',
      service: 'xborder-worker',
    });
    expect(act).toMatchObject({
      level: 'INFO',
      sdkComponent: 'activity',
      activityType: 'chattyActivity',
      attempt: 1,
    });
  });

  it('redacts names, emails, account numbers and API keys', () => {
    const wf = lines().find((l) => l.message === 'payment for customer');
    const act = lines().find((l) => l.message === 'calling the provider');
    expect(wf).toMatchObject({ name: '[REDACTED]', email: '[REDACTED]' });
    expect(act).toMatchObject({ apiKey: '[REDACTED]', accountNumber: '[REDACTED]' });
    for (const secret of ['Ana Lima', 'ana.lima@example.com', 'sk_live_abc123', '000123456789'])
      expect(stdout).not.toContain(secret);
  });
});
