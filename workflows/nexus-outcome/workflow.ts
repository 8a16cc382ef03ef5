// nexusOutcome (`nexus-outcome:<endpoint>:<paymentKey>`): relays one payment's outcome to the Nexus caller of
// `endpoint` under that caller's own key set (docs/codec.md, "Nexus callers"). The payment is named by the relay's
// own ID, never by anything a caller wrote, and read only when its memo names that endpoint as its owner
// (activities/nexus-outcome-activities.ts; SECURITY.md, "Nexus").
// While the payment runs the relay holds no activity slot (a payment waiting for funds takes days; a slot held per
// waiting relay would starve creates and deliveries on the shared task queue): it reads the payment once, then
// waits in the workflow for the payment's `paymentClosed` signal (sent by a Nexus-owned payment just before its run
// completes: workflows/payment/steps/tell-relay.ts) and reads again, this time waiting a short while for the close.
// A payment of an older build never signals: the relay re-reads every FALLBACK_READ_EVERY. Cost per Nexus payment:
// the relay's start, 1-2 reads, the signal, a timer and a re-read per 12 hours of waiting (docs/backend.md, "Nexus").
// AUTO_UPGRADE (workflows/versioning.ts): it moves no money and must not keep a drained build alive for the days a
// payment can take, so its commands change only behind patched() (./patches.ts).
import { ApplicationFailure, condition, patched, setHandler } from '@temporalio/workflow';
import { nexusOutcomeActivities, nexusOutcomeReadActivities } from '../activity-options';
import type { PaymentOutcome } from '../payment/api';
import {
  NEXUS_OUTCOME_FAILURE_TYPE,
  NEXUS_OUTCOME_NOT_OWNER_TYPE,
  paymentClosedSignal,
  type AwaitedPaymentOutcome,
} from './api';
import { NEXUS_OUTCOME_PATCHES } from './patches';

/**
 * How often a waiting relay re-reads a payment that has not told it it ended: a payment started on a build before
 * the signal (a Nexus payment whose caller moved to its own keys while it ran). Each re-read costs a timer and an
 * activity, so not more often: a payment that takes three days costs 6 of each, the outcome of an older build's
 * payment comes at most 12 hours late.
 */
export const FALLBACK_READ_EVERY = '12h';

export async function nexusOutcome(): Promise<PaymentOutcome> {
  let told = false;
  setHandler(paymentClosedSignal, () => {
    told = true;
  });
  for (;;) {
    if (patched(NEXUS_OUTCOME_PATCHES.holdsNoSlot)) return awaitWithoutSlot(() => told);
    // before relay-holds-no-slot: one activity long-polls the payment for up to 4 hours
    const awaited = await relayed(nexusOutcomeActivities.awaitPaymentOutcome());
    if (awaited.ended) return awaited.outcome;
  }
}

async function awaitWithoutSlot(told: () => boolean): Promise<PaymentOutcome> {
  let closingRead = false;
  for (;;) {
    // the first read after the signal waits a short while for the close (the signal comes just before it)
    const closing: boolean = told() && !closingRead;
    closingRead ||= closing;
    const read = await relayed(nexusOutcomeReadActivities.readPaymentOutcome({ closing }));
    if (read.ended) return read.outcome;
    const signalled = () => told() && !closingRead;
    if (!signalled()) await condition(signalled, FALLBACK_READ_EVERY);
  }
}

/** The relay's own failures end it at once, not retried, with the activity's type and message. */
function relayed(read: Promise<AwaitedPaymentOutcome>): Promise<AwaitedPaymentOutcome> {
  return read.catch((error: unknown) => {
    const cause = (error as { cause?: { type?: unknown; message?: unknown } }).cause;
    if (cause?.type === NEXUS_OUTCOME_FAILURE_TYPE || cause?.type === NEXUS_OUTCOME_NOT_OWNER_TYPE)
      throw ApplicationFailure.create({
        type: cause.type,
        message: String(cause.message),
        nonRetryable: true,
      });
    throw error;
  });
}
