// Operators find stuck payments in the Temporal UI with one visibility query. A real dev server
// with its UI, the sandbox, worker and ingress; headless Debian Chromium driven by playwright-core (no browser
// download). The screenshot is kept in test-artifacts/ as evidence.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import got from 'got';
import { chromium, type Browser } from 'playwright-core';
import type { LocalStack } from '../../src/cli/stack';
import { findStuckPayments, stuckQueries } from '../../src/client/stuck';
import { getPaymentState, startPayment } from '../../src/client/payments';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { eventually, startTestStack, uniqueKey } from '../e2e/stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const QUOTE_VALIDITY_MS = 12_000;

let stack: LocalStack;
let browser: Browser | undefined;

beforeAll(async () => {
  // Funded payments stay PENDING for 10 minutes: the healthy payment is running and in progress for the whole
  // test, however slow the machine (an unfunded "healthy" one would itself become stuck once its quote ends).
  stack = await startTestStack({
    sandbox: {
      demoData: true,
      quoteValidityMs: QUOTE_VALIDITY_MS,
      stepDelaysMs: { toProcessing: 600_000, toSent: 600_000, toCompleted: 600_000 },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

function paymentRequest(reference: string) {
  return demoPaymentRequest(reference, 75);
}

it('shows the stuck payment, and not the healthy one, for the stuck-payment query in the Temporal UI', async () => {
  const stuckKey = uniqueKey('ui-stuck');
  await startPayment(
    stack.client,
    { paymentKey: stuckKey, request: paymentRequest(stuckKey) },
    { taskQueue: stack.taskQueue },
  );
  // Nobody funds it: once the quote has expired the payment waits in QUOTE_EXPIRED.
  await eventually(
    'the unfunded payment to reach QUOTE_EXPIRED',
    async () => ((await getPaymentState(stack.client, stuckKey)).phase === 'QUOTE_EXPIRED' ? true : null),
    QUOTE_VALIDITY_MS + 20_000,
  );
  const healthyKey = uniqueKey('ui-healthy');
  const healthy = await startPayment(
    stack.client,
    { paymentKey: healthyKey, request: paymentRequest(healthyKey) },
    { taskQueue: stack.taskQueue },
  );
  if (healthy.created.outcome !== 'CREATED') throw new Error('the healthy payment was not created');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${healthy.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  await eventually('the healthy payment to be in progress', async () =>
    (await getPaymentState(stack.client, healthyKey)).phase === 'IN_PROGRESS' ? true : null,
  );

  const query = stuckQueries().QUOTE_EXPIRED_UNFUNDED;
  // The same query through the client (xborder stuck) — visibility is eventually consistent, so wait for it.
  const viaClient = await eventually('the stuck payment in visibility', async () => {
    const stuck = await findStuckPayments(stack.client);
    return stuck.some((s) => s.workflowId === paymentWorkflowId(stuckKey)) ? stuck : null;
  });
  expect(viaClient.map((s) => s.workflowId)).not.toContain(paymentWorkflowId(healthyKey));

  const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-chromium.sh')], {
    encoding: 'utf8',
  }).trim();
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const url = `${stack.temporal.uiUrl}/namespaces/${stack.namespace}/workflows?query=${encodeURIComponent(query)}`;
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.getByText(paymentWorkflowId(stuckKey)).first().waitFor({ timeout: 60_000 });
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'stuck-payments.png'), fullPage: true });

  const body = await page.locator('body').innerText();
  expect(body).toContain(paymentWorkflowId(stuckKey));
  expect(body).not.toContain(paymentWorkflowId(healthyKey));
  // The healthy payment is there, just not stuck: the UI lists it without the filter.
  await page.goto(`${stack.temporal.uiUrl}/namespaces/${stack.namespace}/workflows`, {
    waitUntil: 'domcontentloaded',
  });
  await page.getByText(paymentWorkflowId(healthyKey)).first().waitFor({ timeout: 60_000 });
});
