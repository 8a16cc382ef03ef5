// The report's renderers and its window: nothing a payment key carries reaches the HTML as markup or a spreadsheet
// as a formula; days are UTC and both included.
import { createReportBuilder } from '../../../src/report/compare';
import { csvField, paymentsCsv } from '../../../src/report/csv';
import { reportHtml } from '../../../src/report/html';
import { reportWindow, ReportWindowError } from '../../../src/report/window';

const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };

function reportWithKey(key: string) {
  const b = createReportBuilder(window, new Date('2026-11-21T01:00:00.000Z'));
  b.addWorkflow({
    workflowId: `payment:${key}`,
    paymentKey: key,
    running: false,
    phase: 'COMPLETED',
    providerStatus: 'COMPLETED',
    providerPaymentId: 'pay_1',
    startTime: '2026-11-20T10:00:00.000Z',
    closeTime: null,
    amounts: { source: { amount: '10', currencyCode: 'USD' }, destination: null },
  });
  b.addService({
    id: 'pay_1',
    type: 'PAYOUT',
    status: 'REFUNDED',
    createdAt: '2026-11-20T10:00:00.000Z',
    source: { amount: '10', currencyCode: 'USD' },
    destination: { amount: '9', currencyCode: 'EUR' },
    fee: '0.5',
  });
  return b.finish();
}

it('escapes what a key carries in the HTML page, which has no script and fetches nothing', () => {
  const html = reportHtml(reportWithKey('<script>alert(1)</script>'));
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
});

it('writes a formula-looking key as text in the CSV, and quotes commas and quotes', () => {
  expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  expect(csvField('-12.50')).toBe('-12.50');
  expect(csvField('a,b')).toBe('"a,b"');
  const csv = paymentsCsv(reportWithKey('@cmd'));
  expect(csv.split('\r\n')[1]).toMatch(/^2026-11-20,"'@cmd",pay_1,MISMATCHED,MOVED_AFTER_OUTCOME,/);
});

it('reads UTC days with both ends included, instants as given, and refuses the rest', () => {
  expect(reportWindow('2026-11-20', '2026-11-20')).toEqual(window);
  expect(reportWindow('2026-11-20T06:00:00+02:00', '2026-11-20T18:00:00Z')).toEqual({
    from: '2026-11-20T04:00:00.000Z',
    to: '2026-11-20T18:00:00.000Z',
  });
  expect(() => reportWindow('2026-11-21', '2026-11-20')).toThrow(ReportWindowError);
  expect(() => reportWindow('yesterday', '2026-11-20')).toThrow(/--from must be a day/);
  expect(() => reportWindow('2026-11-20T06:00:00', '2026-11-21')).toThrow(/with its offset/);
});
