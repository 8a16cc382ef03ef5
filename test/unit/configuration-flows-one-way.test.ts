// Configuration flows one way (docs/architecture.md, "Configuration"): each process's entry reads its environment
// once into one typed config; the modules below take that config and never read process.env.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { workerProcessConfigFromEnv } from '../../workers/process-config';
import { ingressConfigFromEnv } from '../../src/ingress/config';
import { ConfigurationError } from '../../src/support/environment';
import { generatedApiKey, generatedWebhookSecret } from '../support/secrets';
import { writeGeneratedTestKeys } from '../support/test-keys';

const ROOT = path.resolve(__dirname, '..', '..');

const workerEnv = {
  XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010',
  XBORDER_PROVIDER_API_KEY: generatedApiKey(),
  XBORDER_CODEC_KEYS_FILE: writeGeneratedTestKeys(),
};

/** Runs `read` with process.env holding values that would change the result if anything below read it. */
function withPoisonedProcessEnv<T>(read: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, {
    XBORDER_LOG_LEVEL: 'LOUD',
    XBORDER_TRACING: 'jaeger',
    XBORDER_CODEC: 'off',
    XBORDER_STUCK_GAUGE_INTERVAL_MS: 'soon',
    XBORDER_TASK_QUEUE: 'from-process-env',
    OTEL_SERVICE_NAME: 'from-process-env',
  });
  try {
    return read();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

it('the worker process config comes whole from the record its entry read, never from process.env', () => {
  const config = withPoisonedProcessEnv(() =>
    workerProcessConfigFromEnv({
      ...workerEnv,
      XBORDER_TASK_QUEUE: 'q1',
      XBORDER_LOG_LEVEL: 'WARN',
      OTEL_SERVICE_NAME: 'svc',
      XBORDER_TRACING: 'otlp',
    }),
  );
  expect(config.worker.taskQueue).toBe('q1');
  expect(config.telemetry.logLevel).toBe('WARN');
  expect(config.tracing).toEqual({ mode: 'otlp', serviceName: 'svc' });
  expect(config.codec.keys.kind).toBe('keys');
  expect(config.stuckGauge).toEqual({ intervalMs: 60_000, inProgressLimitMs: 24 * 3_600_000 });
  // the Schedule goes to the worker's own task queue
  expect(config.quoteRefresh?.taskQueue).toBe('q1');
  expect(
    workerProcessConfigFromEnv({ ...workerEnv, XBORDER_ENSURE_SCHEDULES: 'false' }).quoteRefresh,
  ).toBeNull();
});

it('the ingress config carries the codec, tracing and telemetry parts read from the same record', () => {
  const config = withPoisonedProcessEnv(() =>
    ingressConfigFromEnv({
      XBORDER_WEBHOOK_SECRETS: generatedWebhookSecret(),
      XBORDER_CODEC: 'disabled',
      XBORDER_LOG_LEVEL: 'ERROR',
    }),
  );
  expect(config.codec.keys.kind).toBe('disabled');
  expect(config.tracing.mode).toBe('off');
  expect(config.telemetry).toEqual({ logLevel: 'ERROR' });
  expect(config.taskQueue).toBe('xborder');
});

it('a wrong variable stops the start with its name, the rule it broke and what to do', () => {
  let error: unknown;
  try {
    workerProcessConfigFromEnv({ ...workerEnv, XBORDER_STUCK_GAUGE_INTERVAL_MS: 'soon' });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigurationError);
  const message = (error as Error).message;
  expect(message).toMatch(/^Invalid stuck-gauge environment:\n {2}XBORDER_STUCK_GAUGE_INTERVAL_MS: .*number/);
  expect(message).toMatch(
    /Set or correct the variable\(s\) above and start again \(docs\/architecture\.md, "Configuration"/,
  );
  expect(message).not.toContain('soon'); // values are never quoted: some are secrets
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

it('process.env is read only by the entry modules the lint rule allows, and each of them exists', () => {
  const eslintConfig = readFileSync(path.join(ROOT, 'eslint.config.mjs'), 'utf8');
  const list = /export const ENV_ENTRY_MODULES = \[([\s\S]*?)\];/.exec(eslintConfig)?.[1] ?? '';
  const entries = [...list.matchAll(/'([^']+\.ts)'/g)].map((m) => m[1]!);
  expect(entries.length).toBeGreaterThanOrEqual(8);
  const readers = ['src', 'workers', 'activities', 'workflows']
    .flatMap((dir) => sources(path.join(ROOT, dir)))
    .filter((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .some((line) => /process\.env\b/.test(line.replace(/\/\/.*$|^\s*\/?\*.*$/, ''))),
    )
    .map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
  expect(readers.filter((file) => !entries.includes(file))).toEqual([]);
  for (const entry of entries) expect(statSync(path.join(ROOT, entry)).isFile()).toBe(true);
});
