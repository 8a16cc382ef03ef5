// What scripts and alerts rely on, without a Temporal server: --version, exit codes 0/2/3, usage and
// errors on stderr, bad requests as a list of fields and rules, numbers checked before connecting, worker and
// ingress --help, `xborder dev` naming a taken port and its flag. (Exit code 1 and --json: test/e2e/cli.e2e.test.ts.)
// In-process (src/cli/cli.ts `main`), but for one spawned case: bin/xborder.js, its loader and the exit code it sets.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEMPORAL_ENV_VARS } from '../../../src/client/connection-config';
import { INGRESS_ENV_VARS } from '../../../src/ingress/config';
import { INGRESS_TELEMETRY_ENV_VARS } from '../../../src/telemetry/ingress-telemetry';
import { TELEMETRY_ENV_VARS } from '../../../src/telemetry/runtime';
import { WORKER_ENV_VARS } from '../../../workers/config';
import { freePort } from '../../support/ports';
import { cliEnvironment, runXborder, spawnXborder, type CliRun } from '../../support/cli-in-process';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-cli-unit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `xborder <args>` in-process (test/support/cli-in-process.ts): exit code, stdout and stderr as a process has them. */
function xborder(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; withoutKeys?: boolean } = {},
): Promise<CliRun> {
  return runXborder(args, cliEnvironment(dir, env, options), options);
}

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** An address where nothing listens: connecting there fails (exit code 3) — if the command gets that far. */
async function deadAddress(): Promise<string> {
  return `127.0.0.1:${await freePort()}`;
}

/** Nothing listens at a dead address: half a second tells exit code 3 as well as the default 10 s. */
const QUICK = ['--connect-timeout', '0.5'];

test('the `xborder` command (bin/xborder.js, a process) sets the exit code and writes usage errors on stderr', async () => {
  const r = await spawnXborder(['stuck', '--bogus'], cliEnvironment(dir, {}));
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^xborder stuck: Unknown option '--bogus'/);
  expect(r.err).toMatch(/Usage: xborder stuck/);
});

test('--version prints the package version on stdout, exit code 0', async () => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const r = await xborder(['--version']);
  expect(r).toMatchObject({ code: 0, out: `${version}\n`, err: '' });
});

test('no command: usage on stderr, exit code 2; --help: usage on stdout, exit code 0', async () => {
  const none = await xborder([]);
  expect(none.code).toBe(2);
  expect(none.out).toBe('');
  expect(none.err).toMatch(/^Usage: xborder <command>/);
  expect(none.err).toMatch(/Exit codes: 0 .* 1 .* 2 usage, 3 cannot connect/);
  const help = await xborder(['--help']);
  expect(help.code).toBe(0);
  expect(help.out).toMatch(/^Usage: xborder <command>/);
});

test('an unknown flag is a usage error on stderr (exit code 2), with the command usage', async () => {
  const r = await xborder(['stuck', '--bogus']);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/xborder stuck: Unknown option '--bogus'/);
  expect(r.err).toMatch(/Usage: xborder stuck/);
});

test('a bad request is a list of fields and rules (never zod JSON), exit code 2, before connecting', async () => {
  const request = file(
    'bad.json',
    JSON.stringify({ customerId: 'c', source: { currencyCode: 'USDC', amount: 'ten' } }),
  );
  const r = await xborder(['pay', '--key', 'k1', '--request', request, '--address', await deadAddress()]);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/nothing was sent/);
  expect(r.err).toMatch(/^ {2}source\.amount: .*expected number.* \[SCHEMA\]$/m);
  expect(r.err).toMatch(/^ {2}destination is required.* \[SCHEMA\]$/m);
  expect(r.err).not.toMatch(/"code"|"path"|\[\s*\{/); // not zod's JSON
});

test('numbers are checked before connecting (exit code 2, not 3)', async () => {
  const address = await deadAddress();
  const request = file('ok.json', '{}');
  for (const args of [
    ['pay', '--key', 'k', '--request', request, '--max-fee', 'abc'],
    ['pay', '--key', 'k', '--request', request, '--max-drift=-1'],
    ['stuck', '--in-progress-hours', '0'],
  ]) {
    const r = await xborder([...args, '--address', address]);
    expect({ args, code: r.code }).toEqual({ args, code: 2 });
    expect(r.err).toMatch(/must be/);
  }
});

test('cannot connect: exit code 3 naming the address tried (--address wins over TEMPORAL_ADDRESS)', async () => {
  const address = await deadAddress();
  const r = await xborder(['status', 'some-key', '--address', address, '--namespace', 'ns1', ...QUICK], {
    TEMPORAL_ADDRESS: '127.0.0.1:1',
  });
  expect(r.code).toBe(3);
  expect(r.out).toBe('');
  expect(r.err).toContain(`cannot connect to Temporal at ${address} (namespace ns1)`);
});

test('--connect-timeout bounds the wait for Temporal; a bad value is a usage error before connecting', async () => {
  const address = await deadAddress();
  const r = await xborder(['stuck', '--address', address, '--connect-timeout', '0.2']);
  expect(r.code).toBe(3);
  expect(r.err).toContain(`cannot connect to Temporal at ${address}`);
  for (const bad of ['0', '-1', 'soon', '601']) {
    const refused = await xborder(['stuck', '--address', address, `--connect-timeout=${bad}`]);
    expect({ bad, code: refused.code }).toEqual({ bad, code: 2 });
    expect(refused.err).toContain('--connect-timeout must be a number of seconds above 0 and at most 600');
  }
});

test('no payload keys is a configuration error (exit code 2) naming the variables and the dev stack key, not exit code 3', async () => {
  const empty = mkdtempSync(path.join(dir, 'no-checkout-'));
  const r = await xborder(
    ['status', 'some-key', '--address', await deadAddress()],
    {},
    { cwd: empty, withoutKeys: true },
  );
  expect(r.code).toBe(2);
  expect(r.err).toContain('XBORDER_CODEC_KEYS');
  expect(r.err).toContain('XBORDER_CODEC_KEYS_FILE');
  expect(r.err).toContain(path.join('.data', 'codec-keys.json'));
  expect(r.err).not.toContain('cannot connect');
});

test('inside a dev checkout the CLI finds .data/codec-keys.json by itself (then only the network can fail: exit 3)', async () => {
  const checkout = mkdtempSync(path.join(dir, 'checkout-'));
  mkdirSync(path.join(checkout, '.data'));
  copyFileSync(
    path.join(ROOT, 'test', 'support', 'codec-test-keys.json'),
    path.join(checkout, '.data', 'codec-keys.json'),
  );
  const below = path.join(checkout, 'src', 'deeper');
  mkdirSync(below, { recursive: true });
  const address = await deadAddress();
  const r = await xborder(
    ['status', 'some-key', '--address', address, ...QUICK],
    {},
    { cwd: below, withoutKeys: true },
  );
  expect(r.code).toBe(3);
  expect(r.err).toContain(`cannot connect to Temporal at ${address}`);
  expect(r.err).not.toContain('encryption keys');
});

test('the address of a temporal.toml profile is the one tried (envconfig in the CLI)', async () => {
  const address = await deadAddress();
  const config = file('temporal.toml', `[profile.ops]\naddress = "${address}"\nnamespace = "ops-ns"\n`);
  const r = await xborder(['stuck', ...QUICK], { TEMPORAL_CONFIG_FILE: config, TEMPORAL_PROFILE: 'ops' });
  expect(r.code).toBe(3);
  expect(r.err).toContain(`at ${address} (namespace ops-ns)`);
});

test('a bad Temporal config file is a usage error naming file and field', async () => {
  const config = file('bad.toml', '[profile.default]\nadress = "x:1"\n');
  const r = await xborder(['stuck'], { TEMPORAL_CONFIG_FILE: config });
  expect(r.code).toBe(2);
  expect(r.err).toContain(config);
  expect(r.err).toContain('adress');
});

test('worker --help and ingress --help print help (every variable they read) and start nothing', async () => {
  const worker = await xborder(['worker', '--help']);
  expect(worker.code).toBe(0);
  for (const name of [...WORKER_ENV_VARS, ...TELEMETRY_ENV_VARS, ...TEMPORAL_ENV_VARS])
    expect(worker.out).toContain(name);
  const ingress = await xborder(['ingress', '--help']);
  expect(ingress.code).toBe(0);
  for (const name of [...INGRESS_ENV_VARS, ...INGRESS_TELEMETRY_ENV_VARS, ...TEMPORAL_ENV_VARS])
    expect(ingress.out).toContain(name);
});

test('xborder dev with a taken port names the port and the flag that changes it (exit code 2)', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const r = await xborder([
      'dev',
      '--temporal-port',
      String(await freePort()),
      '--sandbox-port',
      String(port),
      '--data-dir',
      dir,
      '--once',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`port ${port} (sandbox) is already in use`);
    expect(r.err).toContain('--sandbox-port');
    expect(r.err).not.toMatch(/EADDRINUSE|\n\s+at /); // no stack trace
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test('xborder dev with the codec port taken names it and --codec-port (exit code 2, no EADDRINUSE)', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const r = await xborder([
      'dev',
      '--temporal-port',
      String(await freePort()),
      '--ui-port',
      String(await freePort()),
      '--codec-port',
      String(port),
      '--data-dir',
      dir,
      '--once',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`port ${port} (codec server) is already in use`);
    expect(r.err).toContain('--codec-port');
    expect(r.err).not.toMatch(/EADDRINUSE|\n\s+at /);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test('xborder dev --ui-port is a flag (a taken UI port is named with it)', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const r = await xborder([
      'dev',
      '--temporal-port',
      String(await freePort()),
      '--ui-port',
      String(port),
      '--data-dir',
      dir,
      '--once',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`port ${port} (Temporal UI) is already in use`);
    expect(r.err).toContain('--ui-port');
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
