// The Temporal UI of the local stack decodes payloads through the codec server once a person has entered its
// endpoint in the UI's Codec Server settings (kept in their browser: the UI server is never given the token, whose
// settings answer anyone; docs/codec.md, "The Temporal UI"), and shows only the encrypted payload without it. Headless
// Debian Chromium driven by playwright-core, as test/ui/stuck-payments.ui.test.ts. Screenshots in test-artifacts/.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { temporalBinaries } from '../support/temporal';
import { generatedToken } from '../support/secrets';
import { startTestStack, uniqueKey } from '../e2e/stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { ONBOARD_CUSTOMER_WORKFLOW_TYPE } from '../../workflows/onboard-customer/api';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const TOKEN = generatedToken();

let stack: LocalStack;
let browser: Browser | undefined;

beforeAll(async () => {
  stack = await startTestStack({ codecServer: { token: TOKEN }, sandbox: { demoData: true } });
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
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/**
 * What a person does once in the UI's Settings > Codec Server ("Use my browser setting", the endpoint with the token),
 * as the UI keeps it: in the browser's local storage, never in the UI server's settings answer.
 */
async function useCodecServerInThisBrowser(page: Page): Promise<void> {
  // runs in the page: the browser's localStorage (this project's TypeScript has no DOM library)
  await page.addInitScript((endpoint) => {
    const storage = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } })
      .localStorage;
    storage.setItem('endpoint', JSON.stringify(endpoint));
    storage.setItem('overrideRemoteCodecConfiguration', 'true');
  }, stack.codecServer!.uiEndpoint(TOKEN));
}

async function openWorkflow(page: Page, workflowId: string): Promise<void> {
  await page.goto(
    `${stack.temporal.uiUrl}/namespaces/${stack.namespace}/workflows/${encodeURIComponent(workflowId)}`,
    { waitUntil: 'domcontentloaded' },
  );
  await page.getByText(workflowId).first().waitFor({ timeout: 60_000 });
}

it('shows the decoded payment input with the codec server, and only the encrypted payload without it', async () => {
  const key = uniqueKey('ui-codec');
  const marker = `codec-ui-marker-${key}`;
  await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(marker, 75),
    },
    { taskQueue: stack.taskQueue },
  );
  const workflowId = paymentWorkflowId(key);
  mkdirSync(ARTIFACTS, { recursive: true });

  // With the codec server: what a person does in Settings > Codec Server ("Use my browser setting", the endpoint with
  // the token), as the UI keeps it (its localStorage). The UI's own calls to /decode carry the token in the path.
  const decoded = await browser!.newPage({ viewport: { width: 1600, height: 1200 } });
  await useCodecServerInThisBrowser(decoded);
  const decodeCalls: number[] = [];
  decoded.on('response', (response) => {
    const url = new URL(response.url());
    if (
      url.origin === stack.codecServer!.url &&
      url.pathname === `/${TOKEN}/decode` &&
      response.request().method() === 'POST'
    )
      decodeCalls.push(response.status());
  });
  await openWorkflow(decoded, workflowId);
  await decoded.getByText(marker).first().waitFor({ timeout: 60_000 });
  await decoded.screenshot({ path: path.join(ARTIFACTS, 'codec-ui-decoded.png'), fullPage: true });
  expect(decodeCalls.length).toBeGreaterThan(0);
  expect(decodeCalls.every((status) => status === 200)).toBe(true);

  // Without it (the codec server unreachable from this browser): the input stays encrypted.
  const encrypted = await browser!.newPage({ viewport: { width: 1600, height: 1200 } });
  await useCodecServerInThisBrowser(encrypted);
  await encrypted.route(`${stack.codecServer!.url}/**`, (route) => route.abort());
  await openWorkflow(encrypted, workflowId);
  await encrypted
    .getByText(/binary\/encrypted|YmluYXJ5L2VuY3J5cHRlZA/)
    .first()
    .waitFor({ timeout: 60_000 });
  await encrypted.screenshot({ path: path.join(ARTIFACTS, 'codec-ui-encrypted.png'), fullPage: true });
  expect(await encrypted.locator('body').innerText()).not.toContain(marker);
});

it('the temporal CLI shows the decoded input with --codec-endpoint and --codec-auth, the encrypted one without', async () => {
  const key = uniqueKey('cli-codec');
  const marker = `codec-cli-marker-${key}`;
  await stack.client.workflow.start(ONBOARD_CUSTOMER_WORKFLOW_TYPE, {
    taskQueue: stack.taskQueue,
    workflowId: `customer:${key}`,
    args: [{ customerKey: key, customer: { type: 'INDIVIDUAL', firstName: marker } }],
  });
  const { cli } = temporalBinaries();
  // Asynchronous: the codec server runs in this process, so a blocking call would never get its answer.
  const show = async (...extra: string[]) =>
    (
      await promisify(execFile)(
        cli!,
        [
          'workflow',
          'show',
          '--address',
          stack.temporal.address,
          '-w',
          `customer:${key}`,
          '--output',
          'json',
          ...extra,
        ],
        {
          encoding: 'utf8',
          timeout: 60_000,
          killSignal: 'SIGKILL',
        },
      )
    ).stdout;
  // The JSON output keeps payload data in base64: read every payload's data.
  const payloadTexts = (json: string) =>
    [...json.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
  const decoded = await show('--codec-endpoint', stack.codecServer!.url, '--codec-auth', `Bearer ${TOKEN}`);
  expect(payloadTexts(decoded)).toContain(marker);
  const raw = await show();
  expect(payloadTexts(raw)).not.toContain(marker);
  expect(raw).toContain(Buffer.from('binary/encrypted').toString('base64'));
  // A wrong token: the codec server refuses (401) and the CLI reports it rather than showing anything decoded.
  await expect(
    show('--codec-endpoint', stack.codecServer!.url, '--codec-auth', 'Bearer not-the-token-0123456789'),
  ).rejects.toThrow();
});
