// Runs before every test file: keep the Temporal worker's own logs to warnings and errors,
// so test output shows what failed, not worker state changes. XBORDER_TEST_LOG=DEBUG to see all.
import { writeGeneratedTestKeys } from './test-keys';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const level = (process.env.XBORDER_TEST_LOG ?? 'WARN') as LogLevel;
try {
  Runtime.install({ logger: new DefaultLogger(level) });
} catch {
  // Already installed in this module registry: keep it.
}

// Every worker and client of the tests encrypts payloads, as production does, with a key generated for
// this run (global-setup.ts; here when a file runs without it): no process runs with a key published in the
// repository. Child processes get it through process.env.
// (XBORDER_CODEC=disabled runs them in plaintext: shows what the PII scan test catches without the codec.)
if (
  !process.env.XBORDER_CODEC_KEYS &&
  !process.env.XBORDER_CODEC_KEYS_FILE &&
  process.env.XBORDER_CODEC !== 'disabled'
) {
  process.env.XBORDER_CODEC_KEYS_FILE = writeGeneratedTestKeys();
}
