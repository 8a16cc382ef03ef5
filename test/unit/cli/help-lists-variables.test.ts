// Every entry's --help lists every environment variable it reads (each list comes from the schema that parses
// them, so a variable added there and forgotten in the help fails here). Before, `dev --help` and `worker --help`
// named no XBORDER_EVENTS_* variable, and a payment's events waited silently.
import { TEMPORAL_ENV_VARS } from '../../../src/client/connection-config';
import { QUOTE_REFRESH_ENV_VARS } from '../../../src/client/quote-refresh-config';
import { STUCK_GAUGE_ENV_VARS } from '../../../src/client/stuck-gauge';
import { CODEC_KEY_ENV_VARS, CODEC_SERVER_ENV_VARS } from '../../../src/codec/server-config';
import { INGRESS_ENV_VARS } from '../../../src/ingress/config';
import { INGRESS_TELEMETRY_ENV_VARS } from '../../../src/telemetry/ingress-telemetry';
import { TELEMETRY_ENV_VARS } from '../../../src/telemetry/runtime';
import { TRACING_ENV_VARS } from '../../../src/telemetry/tracing-env';
import { WORKER_ENV_VARS } from '../../../workers/config';
import { EVENTS_ENV_VARS } from '../../../workers/events-config';
import { WORKER_PROCESS_ENV_VARS } from '../../../workers/process-config';
import { cliEnvironment, runXborder } from '../../support/cli-in-process';
import os from 'node:os';

const help = async (command: string): Promise<string> => {
  const r = await runXborder([command, '--help'], cliEnvironment(os.tmpdir(), {}));
  expect(r.code).toBe(0);
  return r.out;
};

const missing = (text: string, names: readonly string[]) => names.filter((n) => !text.includes(n));

it('xborder worker --help: the worker, events, keys, Schedules, gauge, telemetry, tracing and Temporal variables', async () => {
  const out = await help('worker');
  expect(
    missing(out, [
      ...WORKER_ENV_VARS,
      ...EVENTS_ENV_VARS,
      ...CODEC_KEY_ENV_VARS,
      ...QUOTE_REFRESH_ENV_VARS,
      ...STUCK_GAUGE_ENV_VARS,
      ...WORKER_PROCESS_ENV_VARS,
      ...TELEMETRY_ENV_VARS,
      ...TRACING_ENV_VARS,
      ...TEMPORAL_ENV_VARS,
    ]),
  ).toEqual([]);
});

it('xborder dev --help: the events, keys, Schedule and tracing variables, and --events-port', async () => {
  const out = await help('dev');
  expect(
    missing(out, [
      ...EVENTS_ENV_VARS,
      ...CODEC_KEY_ENV_VARS,
      ...QUOTE_REFRESH_ENV_VARS,
      ...TRACING_ENV_VARS,
      '--events-port',
    ]),
  ).toEqual([]);
});

it('xborder ingress --help and codec-server --help', async () => {
  expect(
    missing(await help('ingress'), [
      ...INGRESS_ENV_VARS,
      ...CODEC_KEY_ENV_VARS,
      ...INGRESS_TELEMETRY_ENV_VARS,
      ...TRACING_ENV_VARS,
      ...TEMPORAL_ENV_VARS,
    ]),
  ).toEqual([]);
  expect(missing(await help('codec-server'), [...CODEC_SERVER_ENV_VARS, ...CODEC_KEY_ENV_VARS])).toEqual([]);
});

it('xborder events --help names redeliver --all', async () => {
  expect(await help('events')).toMatch(/redeliver --all/);
});
