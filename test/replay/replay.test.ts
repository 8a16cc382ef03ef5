// Replays the histories recorded from the end-to-end runs (test/replay/histories, refreshed with
// `npm run record-histories`) against the current workflow code: a change that breaks determinism for
// workflows already running in production fails here.
// The replaying worker has the payload codec (with the committed TEST key, test/support/
// codec-test-keys.json, through replay-keys.ts). The encrypted-* histories were recorded with that test key and
// replay with the codec as it runs by default (ciphertext only). The plaintext histories recorded before the codec
// replay with XBORDER_CODEC_PLAINTEXT=admit, the migration switch: workflows running at the switch survive it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';
import { HISTORIES_DIR } from '../support/history-recorder';
import { replayDataConverter } from '../support/replay-keys';
import { TRANSFER_WORKFLOW_TYPE } from '../../workflows/transfer/api';
import { ONBOARD_CUSTOMER_WORKFLOW_TYPE } from '../../workflows/onboard-customer/api';
import { REGISTER_ACCOUNT_WORKFLOW_TYPE } from '../../workflows/register-account/api';

// The production bundle (with its workflow interceptors), built once for the file.
let bundle: Promise<{ code: string }> | undefined;
const productionBundle = () => (bundle ??= buildWorkflowBundle().then((code) => ({ code })));

interface RecordedHistory {
  events?: { workflowExecutionStartedEventAttributes?: { workflowId?: string } }[];
}

// Only the histories the current code must replay: test/replay/archive/<build>/ (PINNED histories of older builds,
// replayed by the commit its BUILD.md names) is not read here.
const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('replay of recorded histories', () => {
  it('has histories of every workflow type of the product', () => {
    const types = new Set(files.map((f) => f.replace(/\.json$/, '').split('--')[1]));
    const pinnedHere = [
      TRANSFER_WORKFLOW_TYPE,
      ONBOARD_CUSTOMER_WORKFLOW_TYPE,
      REGISTER_ACCOUNT_WORKFLOW_TYPE,
    ];
    for (const type of [...pinnedHere, 'providerCustomer', 'payment', 'providerPayment']) {
      expect(types).toContain(type);
    }
  });

  it('has encrypted histories, whose payloads are all encrypted', () => {
    const encrypted = files.filter((f) => f.startsWith('encrypted-'));
    expect(encrypted.length).toBeGreaterThan(0);
    for (const file of encrypted) {
      // Every payload but the search attributes' (indexed by the server: never encrypted) is binary/encrypted.
      const encodings: string[] = [];
      const walk = (value: unknown, key = ''): void => {
        if (!value || typeof value !== 'object' || key === 'indexedFields') return;
        // a local activity marker's `data` is the SDK core's own record (seq, attempt, activity type, times: no
        // data of ours), written plain; the activity's result, in `result`, is checked like every payload
        if (
          key === 'markerRecordedEventAttributes' &&
          (value as { markerName?: string }).markerName === 'core_local_activity'
        ) {
          const { details, ...rest } = value as { details?: Record<string, unknown> };
          const { data: _coreRecord, ...ours } = details ?? {};
          return walk({ ...rest, details: ours });
        }
        // a patched() marker's `patch-data` is the SDK core's own record too (the patch id and its deprecated flag,
        // written plain, no data of ours): the marker holds nothing else
        if (
          key === 'markerRecordedEventAttributes' &&
          (value as { markerName?: string }).markerName === 'core_patch'
        ) {
          const { details, ...rest } = value as { details?: Record<string, unknown> };
          const { 'patch-data': _coreRecord, ...ours } = details ?? {};
          return walk({ ...rest, details: ours });
        }
        const record = value as { metadata?: { encoding?: string } };
        if (typeof record.metadata?.encoding === 'string')
          encodings.push(Buffer.from(record.metadata.encoding, 'base64').toString());
        for (const [k, child] of Object.entries(value)) walk(child, k);
      };
      walk(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
      expect(encodings.length).toBeGreaterThan(0);
      expect(new Set(encodings)).toEqual(new Set(['binary/encrypted']));
    }
  });

  it.each(files)(
    '%s replays deterministically',
    async (file) => {
      // runReplayHistory takes the proto JSON as it is (it converts it with the SDK's own protobuf types).
      const history = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as RecordedHistory;
      const dataConverter = replayDataConverter({
        plaintext: file.startsWith('encrypted-') ? 'refuse' : 'admit',
      });
      // The run's own workflow ID (the started event has it): the codec binds each payload written since docs/codec.md
      // "binding" to its workflow, and a replay under another ID would refuse them; histories recorded before have
      // unbound payloads and replay either way.
      const started = (
        history as { events?: { workflowExecutionStartedEventAttributes?: { workflowId?: string } }[] }
      ).events?.[0]?.workflowExecutionStartedEventAttributes;
      await Worker.runReplayHistory(
        { workflowBundle: await productionBundle(), dataConverter },
        history,
        started?.workflowId || file,
      );
    },
    60_000,
  );
});
