// Records histories of NEW scenarios only, for the replay test (histories are added to, never
// re-recorded over). Like recordHistories (same switch, XBORDER_RECORD_HISTORIES=1), but a scenario whose file
// already exists is left as it is: run only the test file that holds the new scenario, e.g.
//   XBORDER_RECORD_HISTORIES=1 npx jest test/e2e/payment-cancel-requote.e2e.test.ts
import { existsSync, readdirSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { HISTORIES_DIR, recordHistories, recording } from './history-recorder';

/** Scenario names already recorded (`<scenario>--<type>.json`). */
export function recordedScenarios(): Set<string> {
  if (!existsSync(HISTORIES_DIR)) return new Set();
  return new Set(readdirSync(HISTORIES_DIR).map((f) => f.split('--')[0]!));
}

export async function recordNewHistories(
  client: Client,
  address: string,
  scenario: string,
  workflowIds: string[],
): Promise<'recorded' | 'kept' | 'off'> {
  if (!recording) return 'off';
  if (recordedScenarios().has(scenario)) return 'kept';
  await recordHistories(client, address, scenario, workflowIds);
  return 'recorded';
}
