// End-to-end harness: the same local stack as `npm start` (src/cli/stack.ts) on free ports, with a
// fresh SQLite file, compressed sandbox step delays and a short quote validity.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../src/cli/stack';
import { recording } from '../support/history-recorder';
import { freePort } from '../support/ports';
import { replayDataConverter } from '../support/replay-keys';
import { dataConverterFromEnv } from '../../src/codec/data-converter';

export async function startTestStack(overrides: Partial<LocalStackOptions> = {}): Promise<LocalStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-e2e-'));
  const temporalPort = await freePort();
  return startLocalStack({
    temporalPort,
    temporalUiPort: await freePort(),
    temporalDbFile: path.join(dir, 'temporal.db'),
    taskQueue: `e2e-${randomUUID()}`,
    schedules: false,
    // Recorded histories are committed: they are encrypted with the replay histories' public key, not this run's.
    dataConverter: recording ? replayDataConverter() : dataConverterFromEnv(process.env),
    ...overrides,
    sandbox: {
      log: null,
      stepDelaysMs: { toProcessing: 300, toSent: 300, toCompleted: 300 },
      customerReviewDelayMs: 300,
      webhookRetryScheduleMs: [200, 500, 1000, 2000, 4000],
      rateLimit: false,
      ...overrides.sandbox,
    },
  });
}

export function uniqueKey(prefix: string): string {
  // a letter before the random part: `crash-12-` and eight random digits would read as a phone number
  // (12-1234-5678), which a key may not hold (src/codec/identifiers.ts)
  return `${prefix}-k${randomUUID().slice(0, 8)}`;
}

export async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
