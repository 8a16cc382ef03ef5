// `xborder worker --help` and `xborder ingress --help`: both are configured from the environment only.
// The variable lists come from the config schemas (so they cannot drift); telemetry's are spelled out here
// because src/telemetry/runtime.ts loads @temporalio/worker (test/unit/cli keeps the lists in step).
import { TEMPORAL_ENV_VARS } from '../client/connection-config';
import { INGRESS_ENV_VARS } from '../ingress/config';
import { WORKER_ENV_VARS } from '../../workers/config';
import { EXIT } from './exit-codes';

export const WORKER_TELEMETRY_VARS = [
  'XBORDER_METRICS_ADDRESS',
  'XBORDER_LOG_LEVEL',
  'XBORDER_ENSURE_SCHEDULES',
];
export const INGRESS_TELEMETRY_VARS = ['XBORDER_INGRESS_METRICS_ADDRESS', 'XBORDER_LOG_LEVEL'];

const TEMPORAL_SECTION = `Temporal connection (temporal.toml profile, then these variables; see docs/deployment.md):
  ${TEMPORAL_ENV_VARS.join(' ')}
  TEMPORAL_GRPC_META_<HEADER>`;

export function workerHelp(): string {
  return `Usage: xborder worker
Runs the Temporal worker of xborder's workflows and activities until SIGTERM/SIGINT (then drains in-flight
activities for XBORDER_SHUTDOWN_GRACE_MS). No flags: configured from the environment.

Worker variables (workers/config.ts):
  ${WORKER_ENV_VARS.join(' ')}
Telemetry and start-up:
  ${WORKER_TELEMETRY_VARS.join(' ')}
${TEMPORAL_SECTION}

Needs @temporalio/worker@1.24.0 (an optional peer dependency of the package).`;
}

export function ingressHelp(): string {
  return `Usage: xborder ingress
Serves the webhook ingress (verifies signatures, signals the payment workflows) until SIGTERM/SIGINT.
No flags: configured from the environment.

Ingress variables (src/ingress/config.ts):
  ${INGRESS_ENV_VARS.join(' ')}
Telemetry:
  ${INGRESS_TELEMETRY_VARS.join(' ')}
${TEMPORAL_SECTION}`;
}

export function printWorkerHelp(): number {
  console.log(workerHelp());
  return EXIT.OK;
}

export function printIngressHelp(): number {
  console.log(ingressHelp());
  return EXIT.OK;
}
