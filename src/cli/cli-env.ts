import { connectClient } from '../client/connect';
import { temporalConfigFromEnv } from '../client/connection-config';
import { DEFAULT_TASK_QUEUE } from '../../workers/config';

/** What every client-side subcommand needs: a Temporal client, the task queue and the UI address. */
export async function cliContext() {
  const temporal = temporalConfigFromEnv();
  const client = await connectClient(temporal);
  return {
    client,
    namespace: temporal.namespace,
    taskQueue: process.env.XBORDER_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    uiUrl: process.env.TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233',
    close: () => client.connection.close(),
  };
}

export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d${hours % 24}h`;
}
