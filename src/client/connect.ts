import { Client, Connection } from '@temporalio/client';
import {
  connectionOptionsOf,
  temporalConfigFromEnv,
  type TemporalConnectionConfig,
} from './connection-config';

/**
 * A Temporal client for backend services, configured from temporal.toml / the environment
 * (temporalConfigFromEnv) unless a config is given.
 */
export async function connectClient(
  config: TemporalConnectionConfig = temporalConfigFromEnv(),
): Promise<Client> {
  const connection = await Connection.connect(connectionOptionsOf(config));
  return new Client({ connection, namespace: config.namespace });
}
