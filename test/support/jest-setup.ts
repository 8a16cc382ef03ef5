// Runs before every test file: keep the Temporal worker's own logs to warnings and errors,
// so test output shows what failed, not worker state changes. XBORDER_TEST_LOG=DEBUG to see all.
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const level = (process.env.XBORDER_TEST_LOG ?? 'WARN') as LogLevel;
try {
  Runtime.install({ logger: new DefaultLogger(level) });
} catch {
  // Already installed in this module registry: keep it.
}
