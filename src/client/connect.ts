import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnv } from '../codec/data-converter';
import { connectionOptionsOf, temporalConfigFromEnv, type TemporalConnectionConfig } from './connection-config';

/**
 * A Temporal client for backend services, configured from temporal.toml / the environment
 * (temporalConfigFromEnv) unless a config is given. Payloads are encrypted with the keys of
 * XBORDER_CODEC_KEYS(_FILE) unless a data converter is given (docs/codec.md).
 */
export async function connectClient(
  config: TemporalConnectionConfig = temporalConfigFromEnv(),
  dataConverter: DataConverter = dataConverterFromEnv(),
): Promise<Client> {
  const connection = await Connection.connect(connectionOptionsOf(config));
  return new Client({ connection, namespace: config.namespace, dataConverter });
}
