// The reconciliation report's HTML page in headless Chromium (Debian's, driven by playwright-core): opened from a
// file with the network cut off, it shows its verdict, totals, chart and mismatches with nothing fetched. The
// report is a fixed week of payments through the real comparison (fixed clock); the screenshot is kept in
// test-artifacts/ (docs/report-example.png is a copy of it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createReportBuilder } from '../../src/report/compare';
import { reportHtml } from '../../src/report/html';
import type { ServiceRecord, WorkflowRecord } from '../../src/report/types';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
});

/** A week of payments, 20 to 44 a day, in two corridors; a few of each kind of mismatch, three in flight. */
function aWeek() {
  const window = { from: '2026-11-16T00:00:00.000Z', to: '2026-11-23T00:00:00.000Z' };
  const b = createReportBuilder(window, new Date('2026-11-23T01:00:00.000Z'));
  let n = 0;
  for (let day = 0; day < 7; day++) {
    const count = 20 + ((day * 7) % 25);
    for (let i = 0; i < count; i++, n++) {
      const at = new Date(Date.parse(window.from) + day * 86_400_000 + i * 1_800_000).toISOString();
      const usd = n % 3 === 0;
      const source = usd
        ? { amount: String(250 + (n % 7) * 10.25), currencyCode: 'USD' }
        : { amount: String(100 + (n % 5) * 12.5), currencyCode: 'USDC' };
      const destination = usd
        ? { amount: String(4250.4 + n), currencyCode: 'MXN' }
        : { amount: String(512.35 + n), currencyCode: 'BRL' };
      const id = `pay_week${n}`;
      const inFlight = day === 6 && i >= count - 3;
      const w: WorkflowRecord = {
        workflowId: `payment:order-${n}`,
        paymentKey: `order-${n}`,
        running: inFlight,
        phase: inFlight ? 'IN_PROGRESS' : 'COMPLETED',
        providerStatus: null,
        providerPaymentId: id,
        startTime: at,
        closeTime: inFlight ? null : at,
        amounts: { source, destination: null },
      };
      const s: ServiceRecord = {
        id,
        type: 'PAYOUT',
        status: inFlight ? 'PROCESSING' : 'COMPLETED',
        createdAt: at,
        source,
        destination,
        fee: usd ? '2.75' : '1.1',
      };
      if (n === 17) s.status = 'REFUNDED';
      if (n === 95) s.source = { ...source, amount: String(Number(source.amount) + 0.5) };
      if (n !== 140) b.addWorkflow(w);
      if (n === 60) b.addUndelivered(w.paymentKey);
      b.addService(s);
    }
  }
  return b.finish();
}

it('opens offline and shows the verdict, the totals, the chart by day and each mismatch', async () => {
  const report = aWeek();
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-report-ui-')), 'report.html');
  writeFileSync(file, reportHtml(report));
  const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-chromium.sh')], {
    encoding: 'utf8',
  }).trim();
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  const page = await context.newPage();
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.goto(`file://${file}`, { waitUntil: 'load' });

  await expect(page.locator('#verdict').innerText()).resolves.toBe(`4 mismatches on 4 payments`);
  const totals = await page.locator('#totals').innerText();
  // the 0.50 the service added to one payment, and the 100.00 of the payment no workflow knows
  expect(totals).toMatch(/USDC\s+17613.00\s+17512.50\s+100.50/);
  const bars = await page.locator('svg rect').count();
  expect(bars).toBe(7 + 4); // a bar a day, and a red one on each day with a mismatch (four mismatches on four days)
  const mismatches = await page.locator('#mismatches').innerText();
  for (const kind of [
    'MOVED_AFTER_OUTCOME',
    'AMOUNT_DIFFERS',
    'EVENTS_NOT_DELIVERED',
    'UNKNOWN_TO_WORKFLOWS',
  ])
    expect(mismatches).toContain(kind);
  await expect(page.locator('#in-flight tr').count()).resolves.toBe(1 + 3);
  await expect(page.locator('#moved-after-outcome').innerText()).resolves.toContain('order-17');
  await expect(page.locator('#events-not-delivered').innerText()).resolves.toContain('order-60');
  // nothing but the page itself was asked for: it reads offline
  expect(fetched).toEqual([`file://${file}`]);

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'report-example.png'), fullPage: true });
});
