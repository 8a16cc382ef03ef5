import { Client, Connection } from '@temporalio/client';
import { temporalConfigFromEnv, type TemporalConnectionConfig } from './connection-config';

/** A Temporal client for backend services, configured from the environment unless a config is given. */
export async function connectClient(config: TemporalConnectionConfig = temporalConfigFromEnv()): Promise<Client> {
  const connection = await Connection.connect({
    address: config.address,
    ...(config.tls ? { tls: config.tls } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  });
  return new Client({ connection, namespace: config.namespace });
}
