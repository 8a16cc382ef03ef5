// Records the histories of workflows run by the end-to-end tests, for the replay test (test/replay).
// Only when XBORDER_RECORD_HISTORIES=1 (`npm run record-histories`): new histories are added on purpose, existing ones never rewritten.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporalBinaries } from '../../src/cli/temporal-binaries';

export const HISTORIES_DIR = path.resolve(__dirname, '..', 'replay', 'histories');
export const recording = process.env.XBORDER_RECORD_HISTORIES === '1';

/**
 * Saves each workflow's history as `<scenario>--<workflow type>.json`. Entity workflows that are still open
 * (they linger after a terminal status) are saved as far as they got: a partial history replays just as well.
 */
export async function recordHistories(
  client: Client,
  address: string,
  scenario: string,
  workflowIds: string[],
): Promise<void> {
  if (!recording) return;
  const { cli } = temporalBinaries();
  if (!cli) throw new Error('recording histories needs the Temporal CLI (npm run ensure-temporal)');
  mkdirSync(HISTORIES_DIR, { recursive: true });
  for (const workflowId of workflowIds) {
    const handle = client.workflow.getHandle(workflowId);
    const description = await handle.describe();
    // Histories are added to, never re-recorded over (house rule): an existing file is kept as it is.
    const file = path.join(HISTORIES_DIR, `${scenario}--${description.type}.json`);
    if (existsSync(file)) {
      console.warn(
        `recordHistories: ${path.basename(file)} exists, kept (record new scenarios under new names)`,
      );
      continue;
    }
    // The CLI writes the proto JSON that historyFromJSON reads (the SDK's historyToJSON is tied to one protobufjs copy).
    const json = execFileSync(
      cli,
      [
        'workflow',
        'show',
        '--address',
        address,
        '-w',
        workflowId,
        '-r',
        description.runId,
        '--output',
        'json',
      ],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    writeFileSync(file, json);
  }
}

/**
 * Saves one run's history (e.g. the first run of an entity that continued as new) as `<scenario>--<type>.json`.
 * Only when recording; never over an existing file (histories are added to, never re-recorded over).
 */
export function recordRunHistory(
  address: string,
  scenario: string,
  type: string,
  workflowId: string,
  runId: string,
): void {
  if (!recording) return;
  const { cli } = temporalBinaries();
  if (!cli) throw new Error('recording histories needs the Temporal CLI (npm run ensure-temporal)');
  const file = path.join(HISTORIES_DIR, `${scenario}--${type}.json`);
  if (existsSync(file)) throw new Error(`${file} exists: record under a new scenario name`);
  const json = execFileSync(
    cli,
    ['workflow', 'show', '--address', address, '-w', workflowId, '-r', runId, '--output', 'json'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  writeFileSync(file, json);
}
