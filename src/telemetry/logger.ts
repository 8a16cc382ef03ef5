// One structured JSON logger for the whole process: the worker's Runtime logger, which
// also receives the workflow logger (`log` of @temporalio/workflow, through the SDK's logger sink) and the
// activity logger (`log` of @temporalio/activity). One line per entry: { time, level, message, ...meta },
// every field and the message passed through redact() first.
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { redact, redactText } from './redact';
import type { Environment } from '../support/environment';

export const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

export interface JsonLoggerOptions {
  /** entries below this level are dropped; default INFO */
  level?: LogLevel;
  /** where a line goes; default process.stdout */
  write?: (line: string) => void;
  /** fields added to every line (service name, version); redacted like the rest */
  base?: Record<string, unknown>;
  /** clock, for tests */
  now?: () => Date;
}

export interface JsonLogger extends Logger {
  /** a logger that adds `fields` to every line */
  child(fields: Record<string, unknown>): JsonLogger;
}

export function createJsonLogger(options: JsonLoggerOptions = {}): JsonLogger {
  const minimum = LOG_LEVELS.indexOf(options.level ?? 'INFO');
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const base = options.base ?? {};

  const log = (level: LogLevel, message: string, meta?: LogMetadata): void => {
    if (LOG_LEVELS.indexOf(level) < minimum) return;
    const fields = redact({ ...base, ...(meta ?? {}) }) as Record<string, unknown>;
    // time, level and message come last so a field named like them cannot hide them
    const entry = { ...fields, time: now().toISOString(), level, message: redactText(String(message)) };
    let line: string;
    try {
      line = JSON.stringify(entry, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    } catch {
      line = JSON.stringify({
        time: entry.time,
        level,
        message: entry.message,
        note: 'meta not serialisable',
      });
    }
    write(line);
  };

  return {
    log,
    trace: (m, meta) => log('TRACE', m, meta),
    debug: (m, meta) => log('DEBUG', m, meta),
    info: (m, meta) => log('INFO', m, meta),
    warn: (m, meta) => log('WARN', m, meta),
    error: (m, meta) => log('ERROR', m, meta),
    child: (fields) => createJsonLogger({ ...options, base: { ...base, ...fields } }),
  };
}

/** XBORDER_LOG_LEVEL (TRACE, DEBUG, INFO, WARN, ERROR; default INFO). */
export function logLevelFromEnv(env: Environment): LogLevel {
  const raw = (env.XBORDER_LOG_LEVEL ?? 'INFO').toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new Error(
      `XBORDER_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.XBORDER_LOG_LEVEL}"`,
    );
  }
  return raw as LogLevel;
}
