// The local stack's worker log (`xborder dev`): a warning without an error (an expected delivery failure, a
// payment alert) is one line naming its workflow, not the activity's whole context spread over fifteen; an entry
// with an error keeps the SDK's format, stack included (an unexpected failure needs it).
import { format } from 'node:util';
import type { LogEntry } from '@temporalio/worker';

export function devLogLine(entry: LogEntry): string {
  const { level, timestampNanos, message, meta } = entry;
  const at = new Date(Number(timestampNanos / 1000000n)).toISOString();
  if (meta === undefined) return `${at} [${level}] ${message}`;
  if ('error' in meta) return `${at} [${level}] ${message} ${format(meta)}`;
  const where = [meta.workflowId, meta.activityType ?? meta.workflowType]
    .filter((v) => typeof v === 'string')
    .join(' ');
  return `${at} [${level}] ${message}${where ? ` (${where})` : ''}`;
}

export function writeDevLogLine(entry: LogEntry): void {
  process.stderr.write(`${devLogLine(entry)}\n`);
}
