// The `xborder` command against the real stack: pay --watch, status, stuck, cancel.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { getPaymentState } from '../../src/client/payments';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(120_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'xborder.js');
let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true } });
});
afterAll(async () => {
  await stack?.close();
});

function xborder(args: string[]): { done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, TEMPORAL_ADDRESS: stack.temporal.address, XBORDER_TASK_QUEUE: stack.taskQueue, TEMPORAL_UI_URL: stack.temporal.uiUrl },
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
      source: { currencyCode: 'USDC', amount: 20, rail: 'POLYGON', fromAddress: '0x1111111111111111111111111111111111111111' },
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
  await got.post(`${stack.sandbox.url}/sandbox/payments/${state.providerPaymentId}/fund`, { json: {} });
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
