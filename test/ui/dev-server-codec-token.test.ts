// The dev server's UI decodes through the codec server with the token in the endpoint's path (the dev UI cannot
// send a header). That token never appears on the dev server's command line, which every local user can read
// with `ps` (/proc/<pid>/cmdline): `xborder dev` hands it over in a Temporal CLI environment file instead.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDevServer, type DevServer } from '../../src/cli/dev-server';
import { freePort } from '../support/ports';
import { generatedToken } from '../support/secrets';

jest.setTimeout(120_000);

let server: DevServer | undefined;
afterAll(async () => {
  await server?.stop();
});

it('gives the UI its codec endpoint with the token, and keeps the token off the command line', async () => {
  const token = generatedToken();
  const endpoint = `http://127.0.0.1:${await freePort()}/${token}`;
  const port = await freePort();
  const uiPort = await freePort();
  server = await ensureDevServer({
    port,
    uiPort,
    dbFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-devserver-')), 'temporal.db'),
    uiCodecEndpoint: endpoint,
  });
  expect(server.reused).toBe(false);
  const cmdline = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0').join(' ');
  expect(cmdline).toContain('start-dev');
  expect(cmdline).not.toContain(token);
  // The UI got it all the same (its settings are what the browser reads).
  let settings: { Codec?: { Endpoint?: string } } = {};
  for (let i = 0; i < 100 && settings.Codec?.Endpoint === undefined; i++) {
    settings = await fetch(`${server.uiUrl}/api/v1/settings`).then((r) => r.json() as Promise<typeof settings>, () => ({}));
    if (settings.Codec?.Endpoint === undefined) await new Promise((r) => setTimeout(r, 200));
  }
  expect(settings.Codec?.Endpoint).toBe(endpoint);
});
