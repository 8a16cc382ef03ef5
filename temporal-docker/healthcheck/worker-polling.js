// Health check of the worker container (compose `healthcheck`, run inside the container):
// healthy when this container's worker polled its task queue for workflow tasks in the last two
// minutes. A worker polls every few seconds while it runs, so a silent one is stuck or disconnected.
// Plain CommonJS on purpose: it runs from the image, next to the compiled dist/.
'use strict';
const os = require('node:os');
const { Connection } = require('@temporalio/client');
const { temporalConfigFromEnv } = require('../dist/src/client/connection-config.js');
const { DEFAULT_TASK_QUEUE } = require('../dist/workers/config.js');

const MAX_SILENCE_MS = 120_000;

function timestampMs(ts) {
  if (!ts || ts.seconds == null) return 0;
  return Number(String(ts.seconds)) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

async function main() {
  const config = temporalConfigFromEnv(process.env);
  const taskQueue = process.env.XBORDER_TASK_QUEUE || DEFAULT_TASK_QUEUE;
  const connection = await Connection.connect({
    address: config.address,
    ...(config.tls ? { tls: config.tls } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    connectTimeout: 5_000,
  });
  try {
    const response = await connection.workflowService.describeTaskQueue({
      namespace: config.namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    // The SDK's default worker identity is `<pid>@<hostname>`; the hostname is this container's.
    const suffix = `@${os.hostname()}`;
    const ours = (response.pollers ?? []).filter((p) => (p.identity ?? '').endsWith(suffix));
    const last = Math.max(0, ...ours.map((p) => timestampMs(p.lastAccessTime)));
    if (ours.length === 0 || Date.now() - last > MAX_SILENCE_MS) {
      console.error(
        `unhealthy: no poll of task queue ${taskQueue} from *${suffix} in the last ${MAX_SILENCE_MS / 1000}s`,
      );
      return 1;
    }
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
