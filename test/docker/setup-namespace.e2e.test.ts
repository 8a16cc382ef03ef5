// The compose file's namespace job (temporal-docker/scripts/setup-namespace.sh) run for real against a Temporal
// dev server, with the environment compose gives its container: our search attributes registered exactly, a
// second run a no-op, a clash an error. (The rest of temporal-docker/ is checked statically: compose.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { freePort } from '../support/ports';
import { temporalBinaries } from '../support/temporal';
import { containerEnv, DOCKER_DIR, loadCompose, readEnvFile, service } from './compose-model';

const compose = loadCompose('compose.yaml');
const dotenv = readEnvFile('.env.example');

describe('setup-namespace.sh against a Temporal dev server', () => {
  let server: ChildProcess | undefined;
  let address = '';
  let binDir = '';

  beforeAll(async () => {
    const { cli } = temporalBinaries();
    if (!cli) throw new Error('no Temporal CLI: run `npm run ensure-temporal`');
    binDir = mkdtempSync(path.join(os.tmpdir(), 'xb-ns-'));
    symlinkSync(cli, path.join(binDir, 'temporal'));
    const port = await freePort();
    address = `127.0.0.1:${port}`;
    server = spawn(
      cli,
      [
        'server',
        'start-dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--headless',
        '--log-level',
        'error',
      ],
      {
        stdio: 'ignore',
      },
    );
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  const runScript = (env: Record<string, string>) =>
    new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn('sh', [path.join(DOCKER_DIR, 'scripts', 'setup-namespace.sh')], {
        env: { ...env, PATH: `${binDir}:${process.env.PATH}` },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (status) => resolve({ status, out }));
    });

  test('creates the namespace with exactly our search attributes; a second run changes nothing', async () => {
    const namespace = `xb-compose-${randomUUID().slice(0, 8)}`;
    const env = {
      ...containerEnv(service(compose, 'temporal-namespace-setup'), {
        ...dotenv,
        TEMPORAL_NAMESPACE: namespace,
      }),
      TEMPORAL_ADDRESS: address,
    };
    const first = await runScript(env);
    expect(first.out).toContain(`namespace ${namespace} created`);
    expect(first.status).toBe(0);

    const connection = await Connection.connect({ address });
    try {
      const listed = await connection.operatorService.listSearchAttributes({ namespace });
      const custom = Object.entries(listed.customAttributes ?? {})
        .map(([name, type]) => `${name}=${type}`)
        .sort();
      const { temporal } = await import('@temporalio/proto');
      const indexed: Record<string, number> = {
        KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
        DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
      };
      expect(custom).toEqual(
        ALL_SEARCH_ATTRIBUTE_KEYS.map((key) => `${key.name}=${indexed[key.type]}`).sort(),
      );
    } finally {
      await connection.close();
    }

    const second = await runScript(env);
    expect(second.status).toBe(0);
    expect(second.out).toContain(`namespace ${namespace} exists`);
    expect(second.out).not.toContain('Search attributes have been added');

    // An attribute registered with another type is an error, not silently accepted.
    const clash = await runScript({ ...env, XBORDER_SEARCH_ATTRIBUTES: 'QuoteExpiresAt=Keyword' });
    expect(clash.status).toBe(1);
    expect(clash.out).toContain('QuoteExpiresAt');
  }, 90_000);
});
