// Lambda entry of the webhook ingress: `handler` (docs/deployment.md, "Lambda webhook ingress"). Serves API Gateway
// REST (payload v1), HTTP API (v2) and Function URL events through the same webhook handler as the Node server.
//
// Configured from the environment at the first invocation: the handler reads process.env once and
// ingressConfigFromEnv turns it into the typed config (Temporal connection through temporalConfigFromEnv,
// XBORDER_WEBHOOK_SECRETS, XBORDER_TASK_QUEUE, payload keys, tracing, log level) that everything below takes. One Temporal client per container, made by
// connectClient at the first verified webhook (never for an unsigned caller) and reused by every warm invocation
// after it; never closed per request (Lambda freezes the container between invocations; the gRPC channel reconnects
// by itself). A failed connect is not remembered: the invocation answers 503 with a fixed text (the cause is logged,
// since it may quote configuration) and the sender's retry connects again.
import type { Client } from '@temporalio/client';
import { connectClient } from '../client/connect';
import { describeTemporalConfig, type TemporalConnectionConfig } from '../client/connection-config';
import { dataConverterOf } from '../codec/data-converter';
import type { Environment } from '../support/environment';
import { createJsonLogger } from '../telemetry/logger';
import { createIngressTelemetry } from '../telemetry/ingress-telemetry';
import { ingressConfigFromEnv } from './config';
import { createWebhookHandler } from './handler';
import { toLambdaHandler, type LambdaProxyResult } from './lambda';
import { readLambdaHttpEvent } from './lambda-event';
import { createTemporalRouter, TemporalUnavailableError } from './routing';
import { installTracingFor } from '../telemetry/tracing';

export interface LambdaIngressDeps {
  connect: (config: TemporalConnectionConfig) => Promise<Client>;
}

export interface LambdaIngress {
  handle(event: unknown): Promise<LambdaProxyResult>;
  /** How many times a Temporal connection was made (1 on a healthy container). */
  readonly connects: number;
  /** Closes the Temporal connection. Tests only: a Lambda container never calls it. */
  close(): Promise<void>;
}

function answer(statusCode: number, code: string, message: string): LambdaProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ok: false, code, message }),
  };
}

export function createLambdaIngress(env: Environment, deps?: LambdaIngressDeps): LambdaIngress {
  // Parsed now, so a bad variable or a malformed secret fails the cold start instead of every event later.
  const config = ingressConfigFromEnv(env);
  // The codec's data converter is made at the first connect, as before: missing keys answer 503 and are logged.
  const connect =
    deps?.connect ??
    ((temporal: TemporalConnectionConfig) => connectClient(temporal, dataConverterOf(config.codec)));
  // a span per webhook by OTLP/HTTP when the environment turns tracing on; flushed before each answer
  // returns (the container is frozen after it, and a batch would wait for the next invocation)
  const tracing = installTracingFor(config.tracing, 'xborder-ingress-lambda');
  // Outcomes go to JSON log lines (CloudWatch); there is no /metrics endpoint to scrape in a Lambda.
  const telemetry = createIngressTelemetry({
    logger: createJsonLogger({
      level: config.telemetry.logLevel,
      base: { service: 'xborder-ingress-lambda' },
    }),
  });
  let connects = 0;
  let client: Promise<Client> | undefined;
  // Made at the first delivery, that is after a webhook's signature checked out: an unsigned caller never makes this
  // container connect to Temporal, and never sees why a connection failed (the log does).
  const connected = (): Promise<Client> => {
    client ??= (async () => {
      connects++;
      try {
        const c = await connect(config.temporal);
        telemetry.logger.info('connected to Temporal', {
          temporal: describeTemporalConfig(config.temporal),
          taskQueue: config.taskQueue,
        });
        return c;
      } catch (error) {
        client = undefined; // the next invocation tries again
        telemetry.logger.error('cannot connect to Temporal', { error: (error as Error).message });
        throw new TemporalUnavailableError((error as Error).message);
      }
    })();
    return client;
  };
  const webhook = createWebhookHandler({
    secrets: config.secrets,
    toleranceSec: config.toleranceSec,
    router: createTemporalRouter(connected, config.taskQueue),
    onOutcome: telemetry.onOutcome,
  });
  const toResult = toLambdaHandler(webhook);

  return {
    get connects() {
      return connects;
    },
    async handle(event) {
      const http = readLambdaHttpEvent(event);
      if (!http) return answer(400, 'NOT_AN_HTTP_EVENT', 'expected an API Gateway or Function URL event');
      if (http.method !== 'POST') return answer(405, 'METHOD_NOT_ALLOWED', 'POST only');
      try {
        return await toResult(http);
      } finally {
        await tracing?.provider.forceFlush().catch(() => undefined);
      }
    },
    async close() {
      const c = await client?.catch(() => undefined);
      client = undefined;
      await c?.connection.close();
    },
  };
}

let instance: LambdaIngress | undefined;

/** The Lambda handler (`<file>.handler`): one ingress per container, built from process.env at the first invocation. */
export async function handler(event: unknown): Promise<LambdaProxyResult> {
  instance ??= createLambdaIngress(process.env);
  return instance.handle(event);
}

/** Tests only: closes and forgets the container's ingress, as a new container would start. */
export async function resetLambdaIngress(): Promise<void> {
  const current = instance;
  instance = undefined;
  await current?.close();
}
