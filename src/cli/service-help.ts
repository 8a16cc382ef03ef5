// `xborder worker --help` and `xborder ingress --help`: both are configured from the environment only; and the
// environment section of `xborder dev --help` and `xborder codec-server --help`. Every variable an entry reads is
// listed (test/unit/cli/help-lists-variables.test.ts). The lists come from the config schemas (so they cannot
// drift); telemetry's are spelled out here because src/telemetry/runtime.ts loads @temporalio/worker
// (test/unit/cli keeps the lists in step).
import { TEMPORAL_ENV_VARS } from '../client/connection-config';
import { QUOTE_REFRESH_ENV_VARS } from '../client/quote-refresh-config';
import { STUCK_GAUGE_ENV_VARS } from '../client/stuck-gauge';
import { CODEC_KEY_ENV_VARS, CODEC_SERVER_ENV_VARS } from '../codec/server-config';
import { INGRESS_ENV_VARS } from '../ingress/config';
import { TRACING_ENV_VARS } from '../telemetry/tracing-env';
import { WORKER_ENV_VARS } from '../../workers/config';
import { EVENTS_ENV_VARS } from '../../workers/events-config';
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
Outbound events (docs/outbound-events.md; without XBORDER_EVENTS_URL a payment started with \`events: {}\` is not delivered):
  ${EVENTS_ENV_VARS.join(' ')}
Payload keys (docs/codec.md):
  ${CODEC_KEY_ENV_VARS.join(' ')}
The quote-refresh Schedule and the stuck-payments gauge:
  ${[...QUOTE_REFRESH_ENV_VARS, ...STUCK_GAUGE_ENV_VARS].join(' ')}
Telemetry, tracing and start-up:
  ${[...WORKER_TELEMETRY_VARS, ...TRACING_ENV_VARS].join(' ')}
${TEMPORAL_SECTION}

Needs @temporalio/worker@1.24.0 (an optional peer dependency of the package).`;
}

export function ingressHelp(): string {
  return `Usage: xborder ingress
Serves the webhook ingress (verifies signatures, signals the payment workflows) until SIGTERM/SIGINT.
No flags: configured from the environment.

Ingress variables (src/ingress/config.ts):
  ${INGRESS_ENV_VARS.join(' ')}
Payload keys (docs/codec.md):
  ${CODEC_KEY_ENV_VARS.join(' ')}
Telemetry and tracing:
  ${[...INGRESS_TELEMETRY_VARS, ...TRACING_ENV_VARS].join(' ')}
${TEMPORAL_SECTION}`;
}

/** The environment section of `xborder dev --help` (src/cli/dev.ts reads these, and nothing else). */
export function devEnvironmentHelp(): string {
  return `Environment (optional; the stack runs on embedded defaults):
  outbound events: ${EVENTS_ENV_VARS.join(' ')}
    (unset: events go to the stack's own receiver, which logs each one; set: to your endpoint)
  payload keys: ${CODEC_KEY_ENV_VARS.join(' ')} (unset: a key generated into <data-dir>/codec-keys.json)
  the quote-refresh Schedule: ${QUOTE_REFRESH_ENV_VARS.join(' ')}
  tracing: ${TRACING_ENV_VARS.join(' ')}`;
}

/** The environment section of `xborder codec-server --help`. */
export function codecServerEnvironmentHelp(): string {
  return `All variables: ${[...CODEC_KEY_ENV_VARS, ...CODEC_SERVER_ENV_VARS].join(' ')}`;
}

export function printWorkerHelp(): number {
  console.log(workerHelp());
  return EXIT.OK;
}

export function printIngressHelp(): number {
  console.log(ingressHelp());
  return EXIT.OK;
}
