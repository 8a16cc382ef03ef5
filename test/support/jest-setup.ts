// Runs before every test file: keep the Temporal worker's own logs to warnings and errors,
// so test output shows what failed, not worker state changes. XBORDER_TEST_LOG=DEBUG to see all.
import path from 'node:path';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const level = (process.env.XBORDER_TEST_LOG ?? 'WARN') as LogLevel;
try {
  Runtime.install({ logger: new DefaultLogger(level) });
} catch {
  // Already installed in this module registry: keep it.
}

// issue 13: every worker and client of the tests encrypts payloads with the committed TEST key (never a real
// one), as production does with its own keys; child processes get it through process.env.
// (XBORDER_CODEC=disabled runs them in plaintext: shows what the PII scan test catches without the codec.)
if (!process.env.XBORDER_CODEC_KEYS && !process.env.XBORDER_CODEC_KEYS_FILE && process.env.XBORDER_CODEC !== 'disabled') {
  process.env.XBORDER_CODEC_KEYS_FILE = path.join(__dirname, 'codec-test-keys.json');
}
