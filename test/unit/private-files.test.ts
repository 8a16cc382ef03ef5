// Every file xborder writes that holds a secret or personal data is 0600, in a directory it owns (0700)
// (SECURITY.md, "Files on disk"): the sandbox's state file (API keys, webhook secret, customers), the local stack's
// .data/ secrets, the sandbox's generated-secrets file; an existing directory or file that another user owns is
// refused, one of ours left open to others is narrowed. Run with a umask of 022, the usual default.
import { chmodSync, chownSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateSecret } from '../../src/cli/dev';
import { saveData } from '../../src/sandbox/persistence';
import { writeGeneratedSecrets } from '../../src/sandbox/main';
import {
  checkPrivateFile,
  ensurePrivateDir,
  PrivatePathError,
  writePrivateFile,
} from '../../src/support/private-files';

const modeOf = (p: string) => statSync(p).mode & 0o777;
let previousUmask: number;
beforeAll(() => (previousUmask = process.umask(0o022)));
afterAll(() => process.umask(previousUmask));
const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'xborder-private-'));

it('the sandbox state file is 0600 (new and over an existing 0644 one), its new directory 0700', () => {
  const dir = path.join(scratch(), 'state');
  const file = path.join(dir, 'sandbox.json');
  saveData(file, { version: 1 } as never);
  expect(modeOf(file)).toBe(0o600);
  expect(modeOf(dir)).toBe(0o700);
  chmodSync(file, 0o644);
  saveData(file, { version: 1 } as never);
  expect(modeOf(file)).toBe(0o600);
});

it('the local stack’s secrets: generated 0600; an existing one left 0644 is narrowed to 0600', () => {
  const dir = scratch();
  const fresh = path.join(dir, 'webhook-secret');
  loadOrCreateSecret(fresh);
  expect(modeOf(fresh)).toBe(0o600);
  const old = path.join(dir, 'codec-server-token');
  writeFileSync(old, 'x'.repeat(32), { mode: 0o644 });
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  expect(loadOrCreateSecret(old)).toBe('x'.repeat(32));
  expect(modeOf(old)).toBe(0o600);
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('set to 600'));
  warn.mockRestore();
});

it('the sandbox’s generated-secrets file is 0600 even when the target existed 0644', () => {
  const target = path.join(scratch(), 'secrets.json');
  writeFileSync(target, '{}', { mode: 0o644 });
  writeGeneratedSecrets(
    { webhookSecret: 'w', controlToken: 't' } as never,
    { webhookSecret: false, controlToken: false },
    target,
    undefined,
  );
  expect(modeOf(target)).toBe(0o600);
});

it('a data directory: created 0700; an existing 0755 one of ours narrowed to 0700, with a message', () => {
  const created = path.join(scratch(), 'a', '.data');
  ensurePrivateDir(created, () => undefined);
  expect(modeOf(created)).toBe(0o700);
  const wide = scratch();
  chmodSync(wide, 0o755);
  const lines: string[] = [];
  ensurePrivateDir(wide, (l) => lines.push(l));
  expect(modeOf(wide)).toBe(0o700);
  expect(lines.join()).toMatch(/mode was 755.*set to 700/);
});

// Needs root to hand a directory to another user (chown); CI and this machine run the tests as root.
const asRoot = process.getuid?.() === 0 ? it : it.skip;
asRoot(
  'a data directory or file owned by another user is refused with a clear message, and left as it is',
  () => {
    const theirs = scratch();
    chmodSync(theirs, 0o755);
    chownSync(theirs, 65534, 65534);
    expect(() => ensurePrivateDir(theirs, () => undefined)).toThrow(PrivatePathError);
    expect(() => ensurePrivateDir(theirs, () => undefined)).toThrow(
      /owned by uid 65534, not by this user.*--data-dir/,
    );
    expect(modeOf(theirs)).toBe(0o755);
    const file = path.join(scratch(), 'secret');
    writePrivateFile(file, 's');
    chownSync(file, 65534, 65534);
    expect(() => checkPrivateFile(file, () => undefined)).toThrow(PrivatePathError);
  },
);
