// The `xborder` command against the real stack: pay --watch, status, stuck, cancel.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { getPaymentState } from '../../src/client/payments';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { freePort } from '../support/ports';

jest.setTimeout(120_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'xborder.js');
let stack: LocalStack;
beforeAll(async () => {
  // the UI where the dev server puts it (frontend + 1000), so the CLI's links can be checked without TEMPORAL_UI_URL
  const temporalPort = await freePort();
  stack = await startTestStack({
    sandbox: { demoData: true },
    temporalPort,
    temporalUiPort: temporalPort + 1000,
  });
});
afterAll(async () => {
  await stack?.close();
});

function xborder(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): { done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: options.env ?? {
      ...process.env,
      TEMPORAL_ADDRESS: stack.temporal.address,
      XBORDER_TASK_QUEUE: stack.taskQueue,
      TEMPORAL_UI_URL: stack.temporal.uiUrl,
    },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { done: new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err }))) };
}

function requestFile(reference: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-cli-')), 'request.json');
  writeFileSync(
    file,
    JSON.stringify({
      customerId: 'cus_demo_individual',
      source: {
        currencyCode: 'USDC',
        amount: 20,
        rail: 'POLYGON',
        fromAddress: '0x1111111111111111111111111111111111111111',
      },
      destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
      reference,
      paymentReason: 'PERSONAL_TRANSFERS',
    }),
  );
  return file;
}

it('pay --watch shows the funding instructions and follows the payment to COMPLETED; status shows it', async () => {
  const key = uniqueKey('cli-pay');
  const pay = xborder(['pay', '--key', key, '--request', requestFile(key), '--watch']);
  const state = await eventually('the payment to exist', async () => {
    const s = await getPaymentState(stack.client, key);
    return s.providerPaymentId ? s : null;
  });
  await got.post(`${stack.sandbox.url}/sandbox/payments/${state.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  const { code, out, err } = await pay.done;
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(out).toMatch(new RegExp(`payment payment:${key} → provider payment ${state.providerPaymentId}`));
  expect(out).toMatch(/send 20 USDC via POLYGON to 0x/);
  expect(out).toMatch(/outcome: COMPLETED/);

  const status = await xborder(['status', key]).done;
  expect(status.code).toBe(0);
  expect(status.out).toMatch(/phase\s+COMPLETED \(outcome COMPLETED\)/);
  expect(status.out).toContain(`${stack.temporal.uiUrl}/namespaces/default/workflows/payment%3A${key}`);
});

it('cancel stops an unfunded payment; a second cancel of a finished one is refused with exit code 1', async () => {
  const key = uniqueKey('cli-cancel');
  const pay = await xborder(['pay', '--key', key, '--request', requestFile(key)]).done;
  expect(pay.code).toBe(0);
  const cancel = await xborder(['cancel', key, '--reason', 'customer changed their mind']).done;
  expect(cancel.out).toMatch(/cancelled: payment:/);
  expect(cancel.code).toBe(0);
  const again = await xborder(['cancel', key]).done;
  expect(again.code).toBe(1);
});

it('refuses bad arguments with usage and exit code 2', async () => {
  const missing = await xborder(['pay', '--key', 'x']).done;
  expect(missing.code).toBe(2);
  expect(missing.err).toMatch(/--key and --request are required/);
  const unknown = await xborder(['frobnicate']).done;
  expect(unknown.code).toBe(2);
  expect(unknown.err).toMatch(/unknown command "frobnicate"/);
});

// --json on every command that prints a result, and exit code 1 where scripts and alerts read it.
it('--json: pay, status, cancel print one JSON document each; status of a cancelled payment exits 1', async () => {
  const key = uniqueKey('cli-json');
  const pay = await xborder(['pay', '--key', key, '--request', requestFile(key), '--json']).done;
  expect(pay.code).toBe(0);
  expect(pay.err).toBe('');
  const started = JSON.parse(pay.out) as {
    workflowId: string;
    created: { outcome: string; providerPaymentId: string };
    ui: string;
  };
  expect(started).toMatchObject({ workflowId: `payment:${key}`, created: { outcome: 'CREATED' } });
  expect(started.ui).toContain(stack.temporal.uiUrl);

  const status = await xborder(['status', key, '--json']).done;
  expect(status.code).toBe(0); // in progress
  expect(JSON.parse(status.out)).toMatchObject({
    workflowId: `payment:${key}`,
    providerPaymentId: started.created.providerPaymentId,
  });

  const cancel = await xborder(['cancel', key, '--reason', 'test', '--json']).done;
  expect(cancel.code).toBe(0);
  expect(JSON.parse(cancel.out)).toMatchObject({ cancelled: true, state: { workflowId: `payment:${key}` } });
  const again = await xborder(['cancel', key, '--json']).done;
  expect(again.code).toBe(1);
  expect(JSON.parse(again.out)).toMatchObject({ cancelled: false });

  // an accepted cancel shows phase CANCELLING at once; the workflow keeps listening until the provider says
  // the payment can no longer be funded (days), so the outcome itself is not awaited here.
  const cancelled = await eventually('the CANCELLING phase', async () => {
    const r = await xborder(['status', key, '--json']).done;
    return (JSON.parse(r.out) as { phase?: string }).phase === 'CANCELLING' ? r : null;
  });
  expect(cancelled.code).toBe(1); // the payment will not complete
  expect(JSON.parse(cancelled.out)).toMatchObject({ phase: 'CANCELLING', outcome: null });
});

it('--json: stuck prints an array and exits 1 exactly when it is not empty; schedule prints its result', async () => {
  const stuck = await xborder(['stuck', '--json']).done;
  const list = JSON.parse(stuck.out) as unknown[];
  expect(Array.isArray(list)).toBe(true);
  expect(stuck.code).toBe(list.length > 0 ? 1 : 0);

  const scheduleId = uniqueKey('cli-schedule');
  const created = await xborder(['schedule', 'create', '--id', scheduleId, '--json']).done;
  expect(created.code).toBe(0);
  expect(JSON.parse(created.out)).toMatchObject({ scheduleId, action: 'created' });
  const described = await xborder(['schedule', 'describe', '--id', scheduleId, '--json']).done;
  expect(JSON.parse(described.out)).toMatchObject({ scheduleId, paused: false });
  const paused = await xborder(['schedule', 'pause', '--id', scheduleId, '--note', 'test', '--json']).done;
  expect(JSON.parse(paused.out)).toEqual({ scheduleId, action: 'paused' });
  expect((await xborder(['schedule', 'delete', '--id', scheduleId, '--json']).done).code).toBe(0);
  const missing = await xborder(['schedule', 'describe', '--id', scheduleId, '--json']).done;
  expect(missing.code).toBe(1);
  expect(JSON.parse(missing.out)).toEqual({ scheduleId, found: false });
});

it('--address and --namespace override the environment; a wrong address exits 3 naming it', async () => {
  const wrong = await xborder(['stuck', '--address', '127.0.0.1:1']).done;
  expect(wrong.code).toBe(3);
  expect(wrong.err).toContain('cannot connect to Temporal at 127.0.0.1:1');
  const right = await xborder([
    'stuck',
    '--json',
    '--address',
    stack.temporal.address,
    '--namespace',
    stack.namespace,
  ]).done;
  expect([0, 1]).toContain(right.code);
});

it("right after npm start: the CLI finds the checkout's .data/codec-keys.json and links to the stack's own UI port", async () => {
  const key = uniqueKey('cli-first-hour');
  const pay = await xborder(['pay', '--key', key, '--request', requestFile(key)]).done;
  expect(pay.code).toBe(0);
  // what the destination receives and the fee's currency, before anyone funds
  expect(pay.out).toMatch(/the recipient gets [\d.]+ BRL; fee [\d.]+ USDC/);
  const checkout = mkdtempSync(path.join(os.tmpdir(), 'xborder-checkout-'));
  mkdirSync(path.join(checkout, '.data'));
  // the keys the stack encrypts with (this run's, generated by the test setup), where `npm start` keeps its own
  const runKeys = process.env.XBORDER_CODEC_KEYS_FILE;
  if (!runKeys) throw new Error('the test setup gives every run its keys in XBORDER_CODEC_KEYS_FILE');
  copyFileSync(runKeys, path.join(checkout, '.data', 'codec-keys.json'));
  // only what `npm start` prints to copy: the address; no keys variable, no UI variable
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('XBORDER_CODEC') && !k.startsWith('TEMPORAL_')),
  );
  const status = await xborder(['status', key, '--address', stack.temporal.address], { cwd: checkout, env })
    .done;
  expect(status.err).toBe('');
  expect(status.code).toBe(0);
  expect(status.out).toMatch(/phase\s+AWAITING_FUNDS/);
  expect(status.out).toContain(`${stack.temporal.uiUrl}/namespaces/default/workflows/payment%3A${key}`);
});

it('a finished payment: status never says "send funds", cancel says it finished; a return after COMPLETED is shown, exits 1 and is listed by stuck', async () => {
  const key = uniqueKey('cli-after-outcome');
  const pay = xborder(['pay', '--key', key, '--request', requestFile(key), '--watch']);
  const state = await eventually('the payment to exist', async () => {
    const s = await getPaymentState(stack.client, key);
    return s.providerPaymentId ? s : null;
  });
  await got.post(`${stack.sandbox.url}/sandbox/payments/${state.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect((await pay.done).code).toBe(0);

  const done = await xborder(['status', key]).done;
  expect(done.code).toBe(0);
  expect(done.out).toMatch(/outcome COMPLETED/);
  expect(done.out).not.toMatch(/send funds/);

  const cancel = await xborder(['cancel', key]).done;
  expect(cancel.code).toBe(1);
  expect(cancel.err).toMatch(new RegExp(`payment:${key} has already finished: COMPLETED`));
  expect(cancel.err).not.toMatch(/no payment/);

  await got.post(`${stack.sandbox.url}/sandbox/payments/${state.providerPaymentId}/return`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  const returned = await eventually('the return to be seen', async () => {
    const r = await xborder(['status', key]).done;
    return /AFTER OUTCOME/.test(r.out) ? r : null;
  });
  expect(returned.code).toBe(1);
  expect(returned.out).toMatch(/AFTER OUTCOME\s+the provider now says REFUNDED/);
  const listed = await eventually('stuck to list it', async () => {
    const r = await xborder(['stuck', '--json']).done;
    const list = JSON.parse(r.out) as Array<{ kind: string; workflowId: string }>;
    return list.find((s) => s.workflowId === `payment:${key}`) ?? null;
  });
  expect(listed.kind).toBe('MOVED_AFTER_OUTCOME');
});
