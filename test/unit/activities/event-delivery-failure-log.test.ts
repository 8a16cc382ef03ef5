// A receiver that is down (ECONNREFUSED) or answers 5xx is expected while it deploys or restarts: the worker logs
// one line per attempt, no stack (the SDK's own "Activity failed" warning carries the whole error), and the
// failure is still retried by Temporal.
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure, type LogLevel, type LogMetadata, type Logger } from '@temporalio/common';
import { createEventDeliveryActivities } from '../../../activities/event-delivery-activities';
import type { XborderEvent } from '../../../src/contract';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const event = {
  id: 'run-1:1',
  type: 'payment.created',
  version: 1,
  sequence: 1,
  paymentKey: 'order-1',
} as unknown as XborderEvent;

function capturingLogger(): Logger & {
  entries: Array<{ level: LogLevel; message: string; meta?: LogMetadata }>;
} {
  const entries: Array<{ level: LogLevel; message: string; meta?: LogMetadata }> = [];
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) =>
    void entries.push({ level, message, meta });
  return {
    entries,
    log: (level, message, meta) => void entries.push({ level, message, meta }),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4040'), { code: 'ECONNREFUSED' });

it.each([
  [
    'connection refused',
    () => Promise.reject(new TypeError('fetch failed', { cause: refused })),
    /EVENT_RECEIVER_UNREACHABLE: no answer: connect ECONNREFUSED 127\.0\.0\.1:4040/,
  ],
  [
    '503',
    () => Promise.resolve(new Response('down', { status: 503 })),
    /EVENT_RECEIVER_REFUSED: the receiver answered 503/,
  ],
])(
  '%s: one warning line without a stack, retried (BENIGN, not non-retryable)',
  async (_what, fetchImpl, line) => {
    const logger = capturingLogger();
    const env = new MockActivityEnvironment({ attempt: 3 }, { logger });
    const activities = createEventDeliveryActivities({
      config: { defaultEndpoint: { url: 'http://127.0.0.1:4040/events', secrets: [secret] }, endpoints: [] },
      fetch: fetchImpl as unknown as typeof fetch,
    });
    const error = await env.run(activities.deliverPaymentEvent, null, event).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBeFalsy();
    expect((error as ApplicationFailure).category).toBe('BENIGN');
    const warnings = logger.entries.filter((e) => e.level === 'WARN' || e.level === 'ERROR');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(line);
    expect(warnings[0]!.message).toMatch(/attempt 3/);
    expect(warnings[0]!.message).not.toMatch(/\n/);
    expect(JSON.stringify(warnings[0]!.meta ?? {})).not.toMatch(/stack|\\n\s+at /);
  },
);

it('a refused connection is named by its code, not "fetch failed" (an AggregateError of both addresses too)', async () => {
  const { networkError } = await import('../../../activities/event-delivery-activities');
  expect(networkError(new TypeError('fetch failed', { cause: refused }))).toBe(
    'connect ECONNREFUSED 127.0.0.1:4040',
  );
  const both = Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' });
  expect(networkError(new TypeError('fetch failed', { cause: both }))).toBe(
    'connect ECONNREFUSED 127.0.0.1:4040',
  );
  // a cause from another realm (not instanceof Error here) is read the same way
  expect(
    networkError({ message: 'fetch failed', cause: { code: 'ECONNRESET', message: 'socket hang up' } }),
  ).toBe('ECONNRESET: socket hang up');
});

it("the dev stack's log prints such a warning on one line with its workflow; an entry with an error keeps its stack", async () => {
  const { devLogLine } = await import('../../../src/cli/dev-log-line');
  const timestampNanos = BigInt(Date.parse('2026-11-20T10:00:00Z')) * 1_000_000n;
  const line = devLogLine({
    level: 'WARN',
    timestampNanos,
    message:
      'outbound event not delivered (attempt 3; retried): EVENT_RECEIVER_UNREACHABLE: no answer: connect ECONNREFUSED 127.0.0.1:4040',
    meta: {
      sdkComponent: 'activity',
      taskToken: 'abc',
      activityType: 'deliverPaymentEvent',
      workflowId: 'payment-events:order-1',
      attempt: 3,
    },
  });
  expect(line).toBe(
    '2026-11-20T10:00:00.000Z [WARN] outbound event not delivered (attempt 3; retried): EVENT_RECEIVER_UNREACHABLE: no answer: connect ECONNREFUSED 127.0.0.1:4040 (payment-events:order-1 deliverPaymentEvent)',
  );
  const withError = devLogLine({
    level: 'WARN',
    timestampNanos,
    message: 'Activity failed',
    meta: { error: new Error('boom') },
  });
  expect(withError).toMatch(/boom[\s\S]*\n\s+at /);
});
