// Every file xborder writes that holds a secret or personal data is 0600, in a directory it owns (0700)
// (SECURITY.md, "Files on disk"): the sandbox's state file (API keys, webhook secret, customers), the local stack's
// .data/ secrets, the sandbox's generated-secrets file; an existing directory or file that another user owns is
// refused, one of ours left open to others is narrowed. Run with a umask of 022, the usual default.
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateSecret } from '../../src/cli/dev';
import { saveData } from '../../src/sandbox/persistence';
import { writeGeneratedSecrets } from '../../src/sandbox/main';
import {
  checkPrivateFile,
  ensurePrivateDir,
  openNewPrivateFile,
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

// Found in the attacker's review: the temporary file was opened with 'w' at a predictable name (<file>.<pid>.tmp), so a
// symlink planted there sent the secret (and a 0600 chmod) to wherever it pointed.
describe('a planted symlink never redirects a private write', () => {
  it('at the temporary name the writer used: the link’s target (existing or not) is left as it was', () => {
    const dir = scratch();
    const file = path.join(dir, 'secrets.json');
    const elsewhere = scratch();
    const victim = path.join(elsewhere, 'victim');
    writeFileSync(victim, 'theirs');
    chmodSync(victim, 0o644);
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    writePrivateFile(file, 'secret');
    expect(readFileSync(victim, 'utf8')).toBe('theirs');
    expect(modeOf(victim)).toBe(0o644);
    expect(readFileSync(file, 'utf8')).toBe('secret');
    expect(modeOf(file)).toBe(0o600);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    // a dangling link: the write would have created its target
    const other = path.join(dir, 'other.json');
    const created = path.join(elsewhere, 'created-through-the-link');
    symlinkSync(created, `${other}.${process.pid}.tmp`);
    writePrivateFile(other, 'secret');
    expect(existsSync(created)).toBe(false);
    expect(readFileSync(other, 'utf8')).toBe('secret');
  });

  it('openNewPrivateFile opens only a file it creates (O_CREAT|O_EXCL|O_NOFOLLOW), 0600 under a umask of 022', () => {
    const dir = scratch();
    const victim = path.join(dir, 'victim');
    writeFileSync(victim, 'theirs');
    const link = path.join(dir, 'link');
    symlinkSync(victim, link);
    const dangling = path.join(dir, 'dangling');
    symlinkSync(path.join(dir, 'nowhere'), dangling);
    for (const refused of [victim, link, dangling])
      expect(() => openNewPrivateFile(refused)).toThrow(/EEXIST|ELOOP/);
    expect(existsSync(path.join(dir, 'nowhere'))).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('theirs');
    const fresh = path.join(dir, 'fresh');
    closeSync(openNewPrivateFile(fresh));
    expect(modeOf(fresh)).toBe(0o600);
  });
});
