// The report's window from the command line: UTC days, both included (`--from 2026-11-20 --to 2026-11-20` is that
// day), or ISO 8601 instants taken as they are (the end excluded).
import type { ReportWindow } from './types';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export class ReportWindowError extends Error {
  readonly type = 'REPORT_WINDOW_INVALID';
  readonly retryable = false;
}

function instant(text: string, what: string): number {
  const ms = Date.parse(DAY.test(text) ? `${text}T00:00:00.000Z` : text);
  if (!Number.isFinite(ms) || (!DAY.test(text) && !/T.*(Z|[+-]\d{2}:\d{2})$/.test(text))) {
    throw new ReportWindowError(
      `${what} must be a day (YYYY-MM-DD, UTC) or an ISO 8601 instant with its offset, got "${text}"`,
    );
  }
  return ms;
}

export function reportWindow(from: string, to: string): ReportWindow {
  const fromMs = instant(from, '--from');
  const toMs = instant(to, '--to') + (DAY.test(to) ? DAY_MS : 0);
  if (toMs <= fromMs) throw new ReportWindowError(`--to (${to}) must come after --from (${from})`);
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
}
