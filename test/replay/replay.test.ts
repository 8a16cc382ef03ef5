// Replays the histories recorded from the end-to-end runs (test/replay/histories, refreshed with
// `npm run record-histories`) against the current workflow code: a change that breaks determinism for
// workflows already running in production fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';
import { HISTORIES_DIR } from '../support/history-recorder';

// The production bundle (with its workflow interceptors), built once for the file.
let bundle: Promise<{ code: string }> | undefined;
const productionBundle = () => (bundle ??= buildWorkflowBundle().then((code) => ({ code })));

const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();

describe('replay of recorded histories', () => {
  it('has histories of every workflow type of the product', () => {
    const types = new Set(files.map((f) => f.replace(/\.json$/, '').split('--')[1]));
    for (const type of ['transfer', 'onboardCustomer', 'providerCustomer', 'registerAccount', 'payment', 'providerPayment']) {
      expect(types).toContain(type);
    }
  });

  it.each(files)('%s replays deterministically', async (file) => {
    // runReplayHistory takes the proto JSON as it is (it converts it with the SDK's own protobuf types).
    const history: unknown = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle: await productionBundle() }, history, file);
  }, 60_000);
});
