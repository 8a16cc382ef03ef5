import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Client } from '@temporalio/client';
import { connectClient } from '../client/connect';
import { temporalConfigFromEnv, TemporalConfigError } from '../client/connection-config';
import { DEFAULT_TASK_QUEUE } from '../../workers/config';
import { CannotConnectError, UsageError } from './exit-codes';
import { cliDataConverter } from './cli-codec';
import type { Environment } from '../support/environment';
import { currentTracing, tracingModeFromEnv } from '../telemetry/tracing';

/** The flags of every command that talks to Temporal; they override temporal.toml and TEMPORAL_* variables. */
export const CONNECTION_OPTIONS = {
  address: { type: 'string' },
  namespace: { type: 'string' },
  'connect-timeout': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_USAGE = `  --address HOST:PORT   Temporal frontend (default: temporal.toml profile / TEMPORAL_ADDRESS / 127.0.0.1:7233)
  --namespace NAME      Temporal namespace (default: profile / TEMPORAL_NAMESPACE / default)
  --connect-timeout S   seconds to wait for Temporal before exit code 3 (default: 10)`;

/** The connection flags of a command, as parseArgs gives them. */
export interface ConnectionFlags {
  address?: string;
  namespace?: string;
  'connect-timeout'?: string;
}

/** parseArgs whose mistakes (unknown flag, missing value) are usage errors (exit code 2) with the command's usage. */
export function parseCommandArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** A number flag checked before anything connects; undefined when the flag is absent. */
export function numberFlag(
  name: string,
  raw: string | undefined,
  rule: (n: number) => boolean,
  what: string,
  usage: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !rule(n))
    throw new UsageError(`--${name} must be ${what}, got "${raw}"`, usage);
  return n;
}

export interface CliContext {
  client: Client;
  address: string;
  namespace: string;
  taskQueue: string;
  uiUrl: string;
  close(): Promise<void>;
}

/**
 * What every client-side subcommand needs: a Temporal client, the task queue and the UI address, from the
 * flags over the environment the CLI's entry read (TEMPORAL_*, XBORDER_CODEC_*, XBORDER_TASK_QUEUE, TEMPORAL_UI_URL).
 */
export async function cliContext(flags: ConnectionFlags, env: Environment): Promise<CliContext> {
  const connectTimeoutSeconds = numberFlag(
    'connect-timeout',
    flags['connect-timeout'],
    (n) => n > 0 && n <= 600,
    'a number of seconds above 0 and at most 600',
    CONNECTION_USAGE,
  );
  let temporal;
  try {
    temporal = temporalConfigFromEnv({
      ...env,
      ...(flags.address ? { TEMPORAL_ADDRESS: flags.address } : {}),
      ...(flags.namespace ? { TEMPORAL_NAMESPACE: flags.namespace } : {}),
    });
  } catch (error) {
    if (error instanceof TemporalConfigError) throw new UsageError(error.message);
    throw error;
  }
  // before connecting: missing keys are a configuration mistake (exit code 2), not a network failure
  const codec = cliDataConverter(env, process.cwd());
  // traces when the environment turns them on (a host tracer provider, as for connectClientFromEnv)
  const tracing = currentTracing() !== null || tracingModeFromEnv(env) === 'otlp';
  let client: Client;
  try {
    client = await connectClient(temporal, codec.dataConverter, {
      tracing,
      ...(connectTimeoutSeconds !== undefined
        ? { connectTimeoutMs: Math.round(connectTimeoutSeconds * 1000) }
        : {}),
    });
  } catch (error) {
    throw new CannotConnectError(temporal.address, temporal.namespace, error);
  }
  return {
    client,
    address: temporal.address,
    namespace: temporal.namespace,
    taskQueue: env.XBORDER_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    uiUrl: env.TEMPORAL_UI_URL ?? defaultUiUrl(temporal.address),
    close: () => client.connection.close(),
  };
}

/**
 * The UI beside a Temporal at `address` when TEMPORAL_UI_URL is not set: the dev server (`xborder dev`, `temporal
 * server start-dev`) serves it on the frontend port + 1000 by default, so links follow a stack started with
 * --temporal-port. Elsewhere (a cluster) TEMPORAL_UI_URL says where the UI is.
 */
export function defaultUiUrl(address: string): string {
  const match = /^(.*):(\d+)$/.exec(address);
  const port = match ? Number(match[2]) + 1000 : 8233;
  const host = match?.[1] && match[1] !== '0.0.0.0' ? match[1] : '127.0.0.1';
  return port <= 65535 ? `http://${host}:${port}` : 'http://127.0.0.1:8233';
}

/** Results go to stdout: as JSON with --json (one document), else as the command's text. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d${hours % 24}h`;
}
