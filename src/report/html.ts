// The report as one self-contained HTML page: inline CSS and an inline SVG chart of payments and mismatches by
// day; no script, no font, no image, no link to anything outside the page, so it reads offline and in a mail.
import type { DayFigures, ReconciliationReport } from './types';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#57606a}.verdict{display:inline-block;padding:6px 12px;border-radius:6px;font-weight:600;margin:12px 0}
.ok{background:#dafbe1;color:#116329}.bad{background:#ffebe9;color:#a40e26}
table{border-collapse:collapse;margin:4px 0 8px}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.kind{font-family:ui-monospace,monospace;font-size:12px}
.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
`;

/** Bars of payments per day, with the mismatched part in red; a day's figures in its <title> (hover). */
export function chartSvg(days: DayFigures[]): string {
  const width = 720;
  const height = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 40 };
  const max = Math.max(1, ...days.map((d) => d.payments));
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const slot = innerW / Math.max(1, days.length);
  const bar = Math.max(2, Math.min(40, slot * 0.7));
  const y = (v: number) => pad.top + innerH - (v / max) * innerH;
  const parts: string[] = [];
  parts.push(
    `<line x1="${pad.left}" y1="${pad.top + innerH}" x2="${width - pad.right}" y2="${pad.top + innerH}" stroke="#8c959f"/>`,
  );
  for (const tick of [0, max / 2, max]) {
    const v = Math.round(tick);
    parts.push(
      `<text x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#57606a">${v}</text>`,
    );
  }
  const labelEvery = Math.ceil(days.length / 12);
  days.forEach((d, i) => {
    const x = pad.left + i * slot + (slot - bar) / 2;
    const title = `<title>${escapeHtml(d.day)}: ${d.payments} payments, ${d.mismatched} mismatched</title>`;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${y(d.payments).toFixed(1)}" width="${bar.toFixed(1)}" height="${(pad.top + innerH - y(d.payments)).toFixed(1)}" fill="#54aeff">${title}</rect>`,
    );
    if (d.mismatched > 0)
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(d.mismatched).toFixed(1)}" width="${bar.toFixed(1)}" height="${(pad.top + innerH - y(d.mismatched)).toFixed(1)}" fill="#cf222e">${title}</rect>`,
      );
    if (i % labelEvery === 0)
      parts.push(
        `<text x="${(x + bar / 2).toFixed(1)}" y="${height - pad.bottom + 16}" text-anchor="middle" font-size="11" fill="#57606a">${escapeHtml(d.day.slice(5))}</text>`,
      );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Payments and mismatches by day" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

const cell = (text: string | number | null, numeric = false) =>
  `<td${numeric ? ' class="num"' : ''}>${escapeHtml(text === null ? '—' : String(text))}</td>`;

function formatAge(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  return h >= 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${h} h ${m} min`;
}

export function reportHtml(report: ReconciliationReport): string {
  const c = report.counts;
  const verdict = report.allMatch
    ? `<div class="verdict ok" id="verdict">Everything matches: ${c.payments} payments, difference 0.00 in every currency</div>`
    : `<div class="verdict bad" id="verdict">${report.mismatches.length} mismatches on ${c.mismatched} payments</div>`;
  const cards = [
    ['payments', c.payments],
    ['matched', c.matched],
    ['mismatched', c.mismatched],
    ['money in flight', c.inFlight],
    ['awaiting funds', c.open],
  ]
    .map(([k, v]) => `<div class="card"><b>${v}</b>${k}</div>`)
    .join('');
  const totals = report.totals
    .map(
      (t) =>
        `<tr>${cell(t.currencyCode)}${cell(t.serviceSource, true)}${cell(t.workflowSource, true)}${cell(t.sourceDifference, true)}${cell(t.serviceDestination, true)}${cell(t.workflowDestination, true)}${cell(t.destinationDifference, true)}${cell(t.serviceFees, true)}${cell(t.notCompared, true)}</tr>`,
    )
    .join('');
  const mismatches = report.mismatches
    .map(
      (m) =>
        `<tr><td class="kind">${escapeHtml(m.kind)}</td>${cell(m.paymentKey)}${cell(m.providerPaymentId)}${cell(m.service)}${cell(m.workflow)}${cell(m.action)}</tr>`,
    )
    .join('');
  // the two kinds finance follows up apart: also in the mismatches above, listed here by payment
  const subset = (kind: string, id: string, title: string) => {
    const rows = report.mismatches.filter((m) => m.kind === kind);
    const body = rows
      .map((m) => `<tr>${cell(m.paymentKey)}${cell(m.providerPaymentId)}${cell(m.service)}</tr>`)
      .join('');
    return `<h2>${title} (${rows.length})</h2>\n${rows.length === 0 ? '<p>None.</p>' : `<table id="${id}"><tr><th>payment key</th><th>provider payment</th><th>service</th></tr>${body}</table>`}`;
  };
  const inFlight = report.inFlight
    .map(
      (f) =>
        `<tr>${cell(f.paymentKey)}${cell(f.providerPaymentId)}${cell(f.status)}${cell(f.source ? `${f.source.amount} ${f.source.currencyCode}` : null, true)}${cell(formatAge(f.ageMs), true)}</tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>xborder reconciliation ${escapeHtml(report.window.from)} – ${escapeHtml(report.window.to)}</title>
<style>${CSS}</style></head><body>
<h1>Reconciliation report</h1>
<div class="meta">Payments created from ${escapeHtml(report.window.from)} to ${escapeHtml(report.window.to)} (UTC, end excluded) · generated ${escapeHtml(report.generatedAt)}</div>
${verdict}
<div class="cards">${cards}</div>
<h2>Totals by currency</h2>
<table id="totals"><tr><th>currency</th><th>service source</th><th>workflow source</th><th>difference</th><th>service destination</th><th>workflow destination</th><th>difference</th><th>service fees</th><th>not compared</th></tr>${totals}</table>
<div class="meta">Workflow amounts are the amounts asked for at start; payments whose workflow recorded none (a transfer's, a PAYIN or conversion) are counted under "not compared". The workflow record holds no fee.</div>
<h2>Payments and mismatches by day</h2>
<div class="legend"><span style="background:#54aeff"></span>payments<span style="background:#cf222e"></span>mismatched</div>
${chartSvg(report.byDay)}
<h2>Mismatches (${report.mismatches.length})</h2>
${report.mismatches.length === 0 ? '<p>None.</p>' : `<table id="mismatches"><tr><th>kind</th><th>payment key</th><th>provider payment</th><th>service</th><th>workflow</th><th>what to do</th></tr>${mismatches}</table>`}
${subset('MOVED_AFTER_OUTCOME', 'moved-after-outcome', 'Moves after the outcome')}
${subset('EVENTS_NOT_DELIVERED', 'events-not-delivered', 'Events not delivered')}
<h2>Money in flight (${report.inFlight.length})</h2>
${report.inFlight.length === 0 ? '<p>None.</p>' : `<table id="in-flight"><tr><th>payment key</th><th>provider payment</th><th>status</th><th>source</th><th>age</th></tr>${inFlight}</table>`}
</body></html>
`;
}
