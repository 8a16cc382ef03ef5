// The package as a backend team gets it. `npm pack` (prepack builds dist/ with declarations), install
// the tarball into an empty project with production dependencies only (from the registry; npm's cache makes it
// fast), compile a TypeScript consumer against the package's types, run it against a running local stack: it
// starts a payment and gets CREATED, without @temporalio/worker installed or loaded. Also: the `xborder` bin
// runs from the install (no tsx there). Prints the tarball size and the client-only install size.
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
  lstatSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LocalStack } from '../../src/cli/stack';
import { startTestStack, uniqueKey } from '../e2e/stack-support';

const run = promisify(execFile);
jest.setTimeout(15 * 60_000);

const ROOT = path.resolve(__dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let dir: string;
let app: string;
let tarball: string;
let stack: LocalStack | undefined;
let sizes: { tarball: number; unpacked: number; clientOnly: number };

function duBytes(p: string): number {
  const s = lstatSync(p);
  if (!s.isDirectory()) return s.size;
  return readdirSync(p).reduce((sum, name) => sum + duBytes(path.join(p, name)), 0);
}
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-pack-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
  }>;
  tarball = path.join(dir, info!.filename);
  app = path.join(dir, 'app');
  mkdirSync(app);
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  await run('npm', ['install', tarball, '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    maxBuffer: 64 * 1024 * 1024,
  });
  sizes = {
    tarball: statSync(tarball).size,
    unpacked: info!.unpackedSize,
    clientOnly: duBytes(path.join(app, 'node_modules')),
  };
  console.log(
    `xborder package: tarball ${mb(sizes.tarball)} (unpacked ${mb(sizes.unpacked)}); ` +
      `client-only install (production dependencies) ${mb(sizes.clientOnly)}`,
  );
});

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the tarball holds the compiled code with declarations, not the sources or tests', async () => {
  const listed = await run('tar', ['-tzf', tarball]);
  const files = listed.stdout.split('\n').filter(Boolean);
  for (const f of [
    'package/dist/src/client/index.js',
    'package/dist/src/client/index.d.ts',
    'package/dist/workers/worker.d.ts',
    'package/dist/src/nexus/service.js',
    'package/dist/src/nexus/service.d.ts',
    'package/bin/xborder.js',
  ]) {
    expect(files).toContain(f);
  }
  expect(
    files.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/') || f.endsWith('.map')),
  ).toEqual([]);
});

test("docs/backend.md's package figures are the ones measured here (within 10 %)", () => {
  const readme = readFileSync(path.join(ROOT, 'docs', 'backend.md'), 'utf8');
  const packed = /`xborder-<version>\.tgz` \(([\d.]+) MB; ([\d.]+) MB unpacked\)/.exec(readme);
  const client = /A client-only install is ([\d.]+) MB/.exec(readme);
  expect(packed).not.toBeNull();
  expect(client).not.toBeNull();
  const within = (quoted: string, bytes: number) => [
    Number(quoted),
    Math.abs(Number(quoted) * 1e6 - bytes) <= 0.1 * bytes,
  ];
  expect(within(packed![1]!, sizes.tarball)).toEqual([Number(packed![1]), true]);
  expect(within(packed![2]!, sizes.unpacked)).toEqual([Number(packed![2]), true]);
  expect(within(client![1]!, sizes.clientOnly)).toEqual([Number(client![1]), true]);
});

test('the receiver of outbound events runs from the install: mounted on Node http, once per event, a tampered body refused', async () => {
  writeFileSync(path.join(app, 'receiver.ts'), readFileSync(path.join(__dirname, 'consumer', 'receiver.ts')));
  const tscArgs = [
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--typeRoots',
    path.join(ROOT, 'node_modules', '@types'),
    '--types',
    'node',
  ];
  await run(
    process.execPath,
    [
      TSC,
      ...tscArgs,
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--outDir',
      'out-receiver',
      'receiver.ts',
    ],
    { cwd: app },
  );
  await run(
    process.execPath,
    [TSC, ...tscArgs, '--module', 'commonjs', '--moduleResolution', 'node10', '--noEmit', 'receiver.ts'],
    { cwd: app },
  );
  const { stdout } = await run(process.execPath, [path.join(app, 'out-receiver', 'receiver.js')], {
    cwd: app,
  });
  expect(JSON.parse(stdout)).toEqual({
    statuses: [204, 204, 400],
    handled: [{ type: 'payment.completed', sequence: 3, final: true }],
  });
});

test('a client-only install has no @temporalio/worker (optional peer) and no tsx', () => {
  const modules = path.join(app, 'node_modules');
  expect(existsSync(path.join(modules, '@temporalio', 'worker'))).toBe(false);
  expect(existsSync(path.join(modules, '@temporalio', 'core-bridge'))).toBe(false);
  expect(existsSync(path.join(modules, 'tsx'))).toBe(false);
});

test('the xborder bin runs from the install: --version, --help; worker names the peer dependency it needs', async () => {
  const bin = path.join(app, 'node_modules', '.bin', 'xborder');
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  expect((await run(bin, ['--version'])).stdout).toBe(`${version}\n`);
  expect((await run(bin, ['--help'])).stdout).toMatch(/Usage: xborder <command>/);
  const worker = await run(bin, ['worker']).catch((error: { code: number; stderr: string }) => error);
  expect(worker).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('npm install @temporalio/worker@1.24.0'),
  });
});

test('a Temporal caller imports the Nexus service definition from xborder/nexus (node16 and node10 resolution)', async () => {
  writeFileSync(
    path.join(app, 'nexus-caller.ts'),
    readFileSync(path.join(__dirname, 'consumer', 'nexus-caller.ts')),
  );
  const tscArgs = [
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--typeRoots',
    path.join(ROOT, 'node_modules', '@types'),
    '--types',
    'node',
  ];
  await run(
    process.execPath,
    [
      TSC,
      ...tscArgs,
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--outDir',
      'out-nexus',
      'nexus-caller.ts',
    ],
    { cwd: app },
  );
  // node10 resolution finds `xborder/nexus` only through typesVersions
  await run(
    process.execPath,
    [TSC, ...tscArgs, '--module', 'commonjs', '--moduleResolution', 'node10', '--noEmit', 'nexus-caller.ts'],
    { cwd: app },
  );
  const { stdout } = await run(process.execPath, [path.join(app, 'out-nexus', 'nexus-caller.js')], {
    cwd: app,
  });
  expect(JSON.parse(stdout)).toEqual({
    service: 'xborder',
    endpoint: 'xborder',
    operations: ['cancelPayment', 'getPaymentState', 'paymentOutcome', 'startPayment'],
    failureType: 'CANCEL_REFUSED',
    ref: 'consumer',
    workerLoaded: false,
  });
});

test('a TypeScript consumer compiles against the types and starts a payment on a running stack: CREATED', async () => {
  writeFileSync(path.join(app, 'consumer.ts'), readFileSync(path.join(__dirname, 'consumer', 'consumer.ts')));
  // node16 resolution reads `exports`; skipLibCheck as Temporal's own .d.ts need it (they import `ms` types).
  const tscArgs = [
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--typeRoots',
    path.join(ROOT, 'node_modules', '@types'),
    '--types',
    'node',
  ];
  await run(
    process.execPath,
    [TSC, ...tscArgs, '--module', 'node16', '--moduleResolution', 'node16', '--outDir', 'out', 'consumer.ts'],
    { cwd: app },
  );
  // older resolution (node10) finds the subpaths through typesVersions
  await run(
    process.execPath,
    [TSC, ...tscArgs, '--module', 'commonjs', '--moduleResolution', 'node10', '--noEmit', 'consumer.ts'],
    { cwd: app },
  );

  stack = await startTestStack({ sandbox: { demoData: true } });
  const key = uniqueKey('packaged');
  const request = {
    customerId: 'cus_demo_individual',
    source: {
      currencyCode: 'USDC',
      amount: 20,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    reference: key,
    paymentReason: 'PERSONAL_TRANSFERS',
  };
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TEMPORAL_')));
  const { stdout } = await run(process.execPath, [path.join(app, 'out', 'consumer.js')], {
    cwd: app,
    env: {
      ...clean,
      HOME: dir,
      TEMPORAL_ADDRESS: stack.temporal.address,
      XBORDER_TASK_QUEUE: stack.taskQueue,
      CONSUMER_PAYMENT_KEY: key,
      CONSUMER_REQUEST: JSON.stringify(request),
    },
  });
  expect(JSON.parse(stdout)).toEqual({
    outcome: 'CREATED',
    workflowId: `payment:${key}`,
    workerLoaded: false,
  });
});
