// `xborder deploy` (Worker Deployment Versioning): arguments are checked before anything connects —
// every mistake is a usage error (exit code 2) with the usage; a good command that cannot reach Temporal is exit
// code 3. The server side (status, set-current, ramp on the dev server): test/e2e/worker-versioning.e2e.test.ts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDeployArgs } from '../../../src/cli/deploy';
import { UsageError } from '../../../src/cli/exit-codes';
import { freePort } from '../../support/ports';
import { packageVersion } from '../../../src/support/package-root';

jest.setTimeout(60_000);

const usageError = (args: string[], message: RegExp) => {
  let thrown: unknown;
  try {
    parseDeployArgs(args, {});
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  expect((thrown as UsageError).message).toMatch(message);
  expect((thrown as UsageError).usage).toMatch(/^Usage: xborder deploy/);
};

it('parses status, set-current, ramp and stop-ramp with their flags', () => {
  expect(parseDeployArgs(['status'], {})).toEqual({
    help: false,
    command: { sub: 'status' },
    deploymentName: 'xborder',
    allowNoPollers: false,
    json: false,
    connection: {},
  });
  expect(
    parseDeployArgs(['set-current', 'git-3f2a9c1', '--json', '--address', '127.0.0.1:7233'], {}),
  ).toMatchObject({
    command: { sub: 'set-current', buildId: 'git-3f2a9c1' },
    json: true,
    connection: { address: '127.0.0.1:7233' },
  });
  expect(
    parseDeployArgs(['ramp', 'b2', '25', '--deployment', 'xborder-eu', '--allow-no-pollers'], {}),
  ).toMatchObject({
    command: { sub: 'ramp', buildId: 'b2', percentage: 25 },
    deploymentName: 'xborder-eu',
    allowNoPollers: true,
  });
  expect(parseDeployArgs(['ramp', 'b2', '12.5%'], {}).command).toEqual({
    sub: 'ramp',
    buildId: 'b2',
    percentage: 12.5,
  });
  expect(parseDeployArgs(['stop-ramp'], {}).command).toEqual({ sub: 'stop-ramp' });
});

it("takes the deployment name from XBORDER_DEPLOYMENT_NAME (the worker's variable), the flag winning", () => {
  expect(parseDeployArgs(['status'], { XBORDER_DEPLOYMENT_NAME: 'from-env' }).deploymentName).toBe(
    'from-env',
  );
  expect(
    parseDeployArgs(['status', '--deployment', 'flag'], { XBORDER_DEPLOYMENT_NAME: 'from-env' })
      .deploymentName,
  ).toBe('flag');
});

it('--help needs no subcommand', () => {
  expect(parseDeployArgs(['--help'], {}).help).toBe(true);
});

it('refuses a missing or unknown subcommand, wrong argument counts, bad percentages, empty names', () => {
  usageError([], /give a subcommand/);
  usageError(['promote', 'b2'], /unknown subcommand "promote"/);
  usageError(['set-current'], /set-current takes one build id, got none/);
  usageError(['set-current', 'a', 'b'], /set-current takes one build id, got "a b"/);
  usageError(['ramp', 'b2'], /ramp takes a build id and a percentage/);
  usageError(['ramp', 'b2', '101'], /percentage must be a number from 0 to 100, got "101"/);
  usageError(['ramp', 'b2', '-5'], /Unknown option '-5'|percentage must be/);
  usageError(['ramp', 'b2', 'half'], /percentage must be a number from 0 to 100, got "half"/);
  usageError(['status', 'now'], /status takes no arguments, got "now"/);
  usageError(['set-current', ' '], /build id must not be empty/);
  usageError(['status', '--deployment', ''], /--deployment must not be empty/);
  usageError(['status', '--bogus'], /Unknown option '--bogus'/);
});

function xborder(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TEMPORAL_')));
  const bin = path.resolve(__dirname, '..', '..', '..', 'bin', 'xborder.js');
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...clean, HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

it('exit codes: 2 for a usage error (on stderr, with the usage), 3 when Temporal cannot be reached', async () => {
  const usage = await xborder(['deploy', 'ramp', 'b2', 'lots']);
  expect(usage.code).toBe(2);
  expect(usage.out).toBe('');
  expect(usage.err).toMatch(
    /^xborder deploy: ramp: the percentage must be a number from 0 to 100, got "lots"/,
  );
  expect(usage.err).toMatch(/Usage: xborder deploy/);
  const dead = await xborder([
    'deploy',
    'status',
    '--address',
    `127.0.0.1:${await freePort()}`,
    '--connect-timeout',
    '0.5',
  ]);
  expect(dead.code).toBe(3);
  expect(dead.err).toMatch(/xborder deploy: cannot connect to Temporal at 127\.0\.0\.1:\d+/);
});

it('build-id prints the build id a worker derives from the bundle, without connecting; no bundle is a usage error', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-build-id-'));
  const bundle = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundle, 'bundle code');
  const digest = createHash('sha256').update('bundle code').digest('hex');
  expect(parseDeployArgs(['build-id'], { XBORDER_WORKFLOW_BUNDLE: bundle }).command).toEqual({
    sub: 'build-id',
    bundlePath: bundle,
  });
  expect(
    parseDeployArgs(['build-id', '--bundle', '/other.js'], { XBORDER_WORKFLOW_BUNDLE: bundle }).command,
  ).toEqual({ sub: 'build-id', bundlePath: '/other.js' });
  usageError(['build-id'], /give --bundle PATH/);
  // nothing listens at this address: build-id never connects
  const { code, out } = await xborder([
    'deploy',
    'build-id',
    '--bundle',
    bundle,
    '--address',
    `127.0.0.1:${await freePort()}`,
  ]);
  expect({ code, out: out.trim() }).toEqual({ code: 0, out: `${packageVersion()}+${digest.slice(0, 12)}` });
});

it('parses drained <buildId> (the upgrade script asks it before stopping the old slot)', () => {
  expect(parseDeployArgs(['drained', '0.3.0+4f1c2a9be07d'], {}).command).toEqual({
    sub: 'drained',
    buildId: '0.3.0+4f1c2a9be07d',
  });
  usageError(['drained'], /drained takes one build id, got none/);
});
