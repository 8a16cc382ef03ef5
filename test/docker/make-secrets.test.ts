// temporal-docker/scripts/make-secrets.sh run for real (sh) in temporary folders, for what an operator or an intruder
// may have put in the secrets folder before it runs (found in the attacker's review; docs/deployment.md, "Secrets"):
// a file the operator wrote at a looser mode is set to 0600; a symlink is refused, naming it, before anything is
// made or changed (it could point a secret, or a chmod, anywhere); and the uid advice never hands the folder to host
// uid 1000. test/docker/compose.test.ts runs the script for the ordinary case (every file made once, values accepted).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOCKER_DIR } from './compose-model';

const SCRIPT = path.join(DOCKER_DIR, 'scripts', 'make-secrets.sh');
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'xb-make-secrets-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (dir: string) => spawnSync('sh', [SCRIPT, dir], { encoding: 'utf8' });
const modeOf = (file: string) => statSync(file).mode & 0o777;

test('a secret file the operator wrote at a looser mode is set to 0600 (its content kept), in events/ too', () => {
  const dir = path.join(root, 'secrets');
  mkdirSync(path.join(dir, 'events'), { recursive: true });
  // made at run time: a committed secret-looking value is refused by the known-secret scan
  const operatorKey = `op-key-${randomBytes(12).toString('hex')}\n`;
  writeFileSync(path.join(dir, 'provider_api_key'), operatorKey, { mode: 0o644 });
  chmodSync(path.join(dir, 'provider_api_key'), 0o644);
  writeFileSync(path.join(dir, 'events', 'secrets'), 'whsec_for_the_backend\n');
  chmodSync(path.join(dir, 'events', 'secrets'), 0o664);
  const made = run(dir);
  expect(made.status).toBe(0);
  expect(modeOf(path.join(dir, 'provider_api_key'))).toBe(0o600);
  expect(readFileSync(path.join(dir, 'provider_api_key'), 'utf8')).toBe(operatorKey);
  expect(modeOf(path.join(dir, 'events', 'secrets'))).toBe(0o600);
  expect(modeOf(path.join(dir, 'codec_keys'))).toBe(0o600);
});

describe('a symlink in the secrets folder is refused, naming it, before anything is made or changed', () => {
  test.each([
    ['a secret pointing at a file elsewhere', 'provider_api_key', 'file'],
    ['a dangling secret (the script would write the value through it)', 'codec_keys', 'missing'],
    ['the events folder pointing elsewhere', 'events', 'folder'],
    ['a file of the events folder', 'events/secrets', 'file'],
  ] as const)('%s', (_case, name, target) => {
    const dir = path.join(root, 'secrets');
    mkdirSync(path.join(dir, 'events'), { recursive: true });
    const elsewhere = path.join(root, 'elsewhere');
    if (target === 'file') {
      writeFileSync(elsewhere, 'not a secret of ours\n');
      chmodSync(elsewhere, 0o644);
    }
    if (target === 'folder') {
      mkdirSync(elsewhere);
      chmodSync(elsewhere, 0o755);
    }
    if (name === 'events') rmSync(path.join(dir, 'events'), { recursive: true });
    symlinkSync(elsewhere, path.join(dir, name));
    const refused = run(dir);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(name);
    expect(refused.stderr).toMatch(/symlink/i);
    // nothing made, the link and its target as they were
    expect(existsSync(path.join(dir, 'postgres_password'))).toBe(false);
    expect(lstatSync(path.join(dir, name)).isSymbolicLink()).toBe(true);
    if (target === 'file') {
      expect(modeOf(elsewhere)).toBe(0o644);
      expect(readFileSync(elsewhere, 'utf8')).toBe('not a secret of ours\n');
    }
    if (target === 'missing') expect(existsSync(elsewhere)).toBe(false);
    if (target === 'folder') expect(modeOf(elsewhere)).toBe(0o755);
  });
});

test('the uid advice gives the files (and events/) to the containers’ uid 1000, never the folder: it stays 0700, its owner’s', () => {
  const dir = path.join(root, 'secrets');
  const made = run(dir);
  expect(made.status).toBe(0);
  expect(modeOf(dir)).toBe(0o700);
  if (process.getuid?.() === 1000) return; // no advice for the containers' own uid
  // `chown -R 1000:1000 <folder>` let host uid 1000 (often the first person's account) open every secret
  expect(made.stderr).not.toMatch(/chown\s+-R/);
  expect(made.stderr).not.toMatch(
    new RegExp(`chown[^\\n]*\\s${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`),
  );
  expect(made.stderr).toMatch(/chown 1000:1000 /);
  expect(made.stderr).toContain(path.join(dir, 'codec_keys'));
  expect(made.stderr).toMatch(/0700/);
});

test('a secrets folder that is itself a symlink is refused before its target is changed', () => {
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(elsewhere);
  chmodSync(elsewhere, 0o755);
  const dir = path.join(root, 'secrets');
  symlinkSync(elsewhere, dir);
  const refused = run(dir);
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toMatch(/symlink/i);
  expect(modeOf(elsewhere)).toBe(0o755);
  expect(existsSync(path.join(elsewhere, 'postgres_password'))).toBe(false);
});
