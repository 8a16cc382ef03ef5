// The Temporal Runtime's logger for the local stack (`xborder dev`): one readable line per entry, like the SDK's
// DefaultLogger, but every field passed through redact() first. The SDK adds the activity's task token (base64) to
// every activity log line ("Activity failed" warnings among them), and a task token completes or fails that
// activity for whoever holds it (RespondActivityTaskCompleted by token): it never reaches a log. The worker's own
// processes log JSON through createJsonLogger, which redacts the same way (logger.ts).
import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';
import { redact, redactText } from './redact';

/** The SDK's line: time, level, message, then the fields as JSON. */
function sdkLine(entry: LogEntry): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const fields = entry.meta ? ` ${JSON.stringify(entry.meta)}` : '';
  return `${time} [${entry.level}] ${entry.message}${fields}`;
}

/**
 * One line per entry, every field passed through redact() before `format` sees it (the SDK's line by default; the
 * local stack's one-line form: src/cli/dev-log-line.ts). `write` defaults to stderr.
 */
export function redactingConsoleLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
  format: (entry: LogEntry) => string = sdkLine,
): DefaultLogger {
  return new DefaultLogger(level, (entry: LogEntry) =>
    write(
      format({
        ...entry,
        message: redactText(entry.message),
        meta: entry.meta ? (redact(entry.meta) as LogEntry['meta']) : undefined,
      }),
    ),
  );
}
