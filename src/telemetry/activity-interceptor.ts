// Counts provider errors by type without touching the activities: an activity inbound
// interceptor sees every failure an activity throws (activities/errors.ts has already turned provider errors
// into ApplicationFailures whose `type` is the ProviderError type) and counts it on the activity's metric
// meter (the worker runtime's meter, tagged with namespace, task queue and activity type by the SDK).
import { ApplicationFailure } from '@temporalio/common';
import type { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { createXborderMetrics } from './metrics';

/** The failure type of what an activity threw (ApplicationFailure.type, a typed error's `type`, else UNKNOWN). */
export function errorTypeOf(err: unknown): string {
  if (err instanceof ApplicationFailure && err.type) return err.type;
  if (typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string') {
    return (err as { type: string }).type;
  }
  return 'UNKNOWN';
}

/** Failures that are not the provider's: cancellation of the activity itself. */
function isCancellation(err: unknown): boolean {
  return err instanceof Error && err.name === 'CancelledFailure';
}

export function providerErrorCounter(): ActivityInterceptorsFactory {
  return (ctx: Context) => {
    const metrics = createXborderMetrics(ctx.metricMeter);
    return {
      inbound: {
        async execute(input, next) {
          try {
            return await next(input);
          } catch (err) {
            if (!isCancellation(err)) metrics.providerError(errorTypeOf(err));
            throw err;
          }
        },
      },
    };
  };
}
