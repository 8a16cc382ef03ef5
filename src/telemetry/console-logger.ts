// The Temporal Runtime's logger for the local stack (`xborder dev`): one readable line per entry, like the SDK's
// DefaultLogger, but every field passed through redact() first. The SDK adds the activity's task token (base64) to
// every activity log line ("Activity failed" warnings among them), and a task token completes or fails that
// activity for whoever holds it (RespondActivityTaskCompleted by token): it never reaches a log. The worker's own
// processes log JSON through createJsonLogger, which redacts the same way (logger.ts).
import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';
import { redact, redactText } from './redact';

/** One line: time, level, message, then the redacted fields as JSON. `write` defaults to stderr. */
export function redactingConsoleLogger(level: LogLevel, write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): DefaultLogger {
  return new DefaultLogger(level, (entry: LogEntry) => {
    const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
    const fields = entry.meta ? ` ${JSON.stringify(redact(entry.meta))}` : '';
    write(`${time} [${entry.level}] ${redactText(entry.message)}${fields}`);
  });
}
