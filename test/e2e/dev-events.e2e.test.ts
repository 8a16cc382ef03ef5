// `npm start` (xborder dev) has outbound events on from the first start: with no XBORDER_EVENTS_URL it runs its own
// receiver, writes its signing secret to <data-dir>/events-secret (0600, never printed), says where events go, and
// the demo transfer's events arrive there, each logged on one line. The `$(cat …)` paths it prints are absolute.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports';
import { cliEnvironment, spawnXborder } from '../support/cli-in-process';

jest.setTimeout(300_000);

it('xborder dev --once: events to the stack receiver, logged; secret in .data/events-secret (0600); absolute paths', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'xborder-dev-events-'));
  const dataDir = path.join(home, 'data');
  const ports = {
    temporal: await freePort(),
    ui: await freePort(),
    sandbox: await freePort(),
    ingress: await freePort(),
    codec: await freePort(),
    events: await freePort(),
  };
  const env = cliEnvironment(home, {}, { withoutKeys: true });
  for (const k of Object.keys(env)) if (k.startsWith('XBORDER_EVENTS_')) delete env[k];
  const r = await spawnXborder(
    [
      'dev',
      '--once',
      '--data-dir',
      dataDir,
      '--temporal-port',
      String(ports.temporal),
      '--ui-port',
      String(ports.ui),
      '--sandbox-port',
      String(ports.sandbox),
      '--ingress-port',
      String(ports.ingress),
      '--codec-port',
      String(ports.codec),
      '--events-port',
      String(ports.events),
    ],
    env,
  );
  expect(r.code).toBe(0);
  const secretFile = path.join(dataDir, 'events-secret');
  expect(r.out).toContain(`outbound events   http://127.0.0.1:${ports.events}/events`);
  expect(r.out).toContain(secretFile);
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  const secret = readFileSync(secretFile, 'utf8').trim();
  expect(secret).toMatch(/^whsec_/);
  expect(r.out + r.err).not.toContain(secret);
  // the demo transfer's payment.created reached the receiver, verified, and was logged on one line
  expect(r.out).toMatch(/event #1 payment\.created \(payment demo-[^)]+\)/);
  expect(r.out).not.toMatch(/EVENT_ENDPOINT_NOT_CONFIGURED/);
  // every `$(cat …)` path printed is absolute: it works pasted into a shell anywhere
  const catPaths = [...r.out.matchAll(/\$\(cat ([^)]+)\)/g)].map((m) => m[1]!);
  expect(catPaths.length).toBeGreaterThanOrEqual(2);
  for (const p of catPaths) expect([p, path.isAbsolute(p)]).toEqual([p, true]);
});
