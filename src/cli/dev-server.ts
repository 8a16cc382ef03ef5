import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { isListening, stopChild } from './processes';
import { temporalBinaries } from './temporal-binaries';

export interface DevServerOptions {
  host?: string;
  port?: number;
  uiPort?: number;
  /** SQLite file of the dev server: workflows survive a restart of `npm start`. */
  dbFile?: string;
  namespace?: string;
  log?: (line: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  /** True when a server was already listening and we reuse it (we will not stop it). */
  reused: boolean;
  /** The dev server's process id, when we started it. */
  pid?: number;
  stop(): Promise<void>;
}

const INDEXED_TYPE: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
};

/**
 * Starts the Temporal CLI's dev server (UI + SQLite under .data/) or reuses one already listening on
 * the port, and makes sure our search attributes are registered in either case.
 */
export async function ensureDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 7233;
  const uiPort = options.uiPort ?? port + 1000;
  const namespace = options.namespace ?? 'default';
  const log = options.log ?? (() => undefined);
  const address = `${host}:${port}`;
  const uiUrl = `http://${host}:${uiPort}`;

  let child: ChildProcess | undefined;
  let stopping = false;
  const reused = await isListening(host, port);
  if (reused) {
    log(`Temporal dev server already listening on ${address}: reusing it`);
  } else {
    const { cli } = temporalBinaries();
    if (!cli)
      throw new Error(
        'No Temporal CLI found: run `npm run ensure-temporal` (docs/development.md, "Temporal binaries").',
      );
    const dbFile = path.resolve(options.dbFile ?? '.data/temporal.db');
    mkdirSync(path.dirname(dbFile), { recursive: true });
    const args = [
      'server',
      'start-dev',
      '--ip',
      host,
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--db-filename',
      dbFile,
      '--namespace',
      namespace,
      '--log-level',
      'error',
    ];
    // No codec endpoint for the UI here: the UI's settings (GET /api/v1/settings) answer anyone on the machine, so a
    // token in them would be served to whoever asks. A person gives the UI the codec server's endpoint in the UI's
    // own Codec Server settings, kept in that browser only (docs/codec.md, "The Temporal UI").
    log(`starting Temporal dev server on ${address} (db ${dbFile})`);
    child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    // Its errors matter while it runs; the burst of "context canceled" lines at shutdown does not.
    // ("context canceled" also comes whenever a client drops a long poll: not an error of the server.)
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stopping) return;
      const lines = chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() && !l.includes('context canceled'));
      if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
    });
    let exited: string | null = null;
    child.once('exit', (code, signal) => (exited = `exited early (code ${code}, signal ${signal})`));
    try {
      // Fails at once when the server exits (port or UI port taken, database locked), not after the timeout.
      await waitUntil(
        async () => {
          if (exited) throw new Error(`Temporal dev server ${exited}; is port ${port} or ${uiPort} in use?`);
          return isListening(host, port);
        },
        60_000,
        `Temporal dev server did not listen on ${address}`,
      );
      await registerSearchAttributes(address, namespace, log);
    } catch (error) {
      stopping = true;
      child.kill('SIGKILL'); // never leave a half-started server behind
      throw error;
    }
  }
  if (reused) await registerSearchAttributes(address, namespace, log);
  return {
    address,
    uiUrl,
    reused,
    ...(child?.pid !== undefined ? { pid: child.pid } : {}),
    async stop() {
      if (!child || child.exitCode !== null) return;
      stopping = true;
      await stopChild(child, 'SIGTERM', 10_000);
    },
  };
}

async function registerSearchAttributes(address: string, namespace: string, log: (line: string) => void) {
  const connection = await Connection.connect({ address });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = ALL_SEARCH_ATTRIBUTE_KEYS.filter(
      (key) => !(key.name in (existing.customAttributes ?? {})),
    );
    if (missing.length === 0) return;
    const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, INDEXED_TYPE[key.type]!]));
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    log(`registered search attributes: ${missing.map((k) => k.name).join(', ')}`);
  } finally {
    await connection.close();
  }
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(message);
}
