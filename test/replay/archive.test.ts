// Replay histories per build (docs/deployment.md, "Replay histories per build"). CI replays test/replay/histories
// only (replay.test.ts): what the current code must replay. A PINNED workflow's run never moves to another build,
// so once its commands change, its histories recorded on an older build are moved (git mv, byte-identical) to
// test/replay/archive/<build>/, whose BUILD.md names the commit that replays them. This file checks that layout.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { WORKFLOW_VERSIONING_BEHAVIORS } from '../../workflows/versioning';
import { HISTORIES_DIR } from '../support/history-recorder';

const ARCHIVE_DIR = path.resolve(__dirname, 'archive');
const builds = existsSync(ARCHIVE_DIR)
  ? readdirSync(ARCHIVE_DIR)
      .filter((name) => statSync(path.join(ARCHIVE_DIR, name)).isDirectory())
      .sort()
  : [];
const behaviorOf = (type: string): string | undefined =>
  (WORKFLOW_VERSIONING_BEHAVIORS as Record<string, string>)[type];

/** `<scenario>--<workflowType>.json` → the workflow type. */
const typeOf = (file: string): string => file.replace(/\.json$/, '').split('--')[1] ?? '';

describe('archived replay histories', () => {
  it('are kept in folders named after builds', () => {
    const files = existsSync(ARCHIVE_DIR) ? readdirSync(ARCHIVE_DIR) : [];
    expect(files.filter((name) => !builds.includes(name))).toEqual([]);
  });

  describe.each(builds.length > 0 ? builds : ['(none)'])('build %s', (build) => {
    if (build === '(none)') return it.skip('has no archive yet', () => undefined);
    const dir = path.join(ARCHIVE_DIR, build);
    const histories = readdirSync(dir).filter((f) => f.endsWith('.json'));

    it('has a BUILD.md naming the git commit that replays its histories', () => {
      const buildMd = path.join(dir, 'BUILD.md');
      expect(existsSync(buildMd)).toBe(true);
      expect(readFileSync(buildMd, 'utf8')).toMatch(/\b(?:[0-9a-f]{40}|[0-9a-f]{7,39})\b/);
    });

    it('holds histories of PINNED workflow types only (AUTO_UPGRADE histories stay in test/replay/histories)', () => {
      const notPinned = histories.filter((f) => behaviorOf(typeOf(f)) !== 'PINNED');
      expect(notPinned).toEqual([]);
    });

    it('holds histories moved out of test/replay/histories, not copies of ones the current code replays', () => {
      const current = new Set(readdirSync(HISTORIES_DIR));
      expect(histories.filter((f) => current.has(f))).toEqual([]);
    });
  });
});
