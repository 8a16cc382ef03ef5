// Following a payment outlives a run: a return heard weeks after COMPLETED (spec: States and transitions; failure
// code FUNDS_RETURNED_BY_RECEIVING_BANK) reaches an entity run that began after the one the payment subscribed to
// had ended (its linger over). That fresh run learns where the payment's late events go from what survives in
// Temporal: the payment workflow (named by the entity's last ended run, or found by visibility and then shown to have
// followed it: late-events-sources.ts), its delivery workflow
// `payment-events:<key>` (which exists only when the payment asked for events: its endpoint, and the moves it has
// already handed over) and the payment's outcome (what its backend was told last).
import { Context } from '@temporalio/activity';
import {
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import type { PaymentOutcome } from '../workflows/payment/api';
import { paymentEventsStateQuery, paymentEventsWorkflowId } from '../workflows/payment-events/api';
import { moveKey } from '../workflows/provider-payment/knowledge';
import {
  PAYMENT_ID_PREFIX,
  paymentWorkflowOfEntityRuns,
  paymentWorkflowOfVisibility,
  subscribedBy,
} from './late-events-sources';
import { warnInActivity } from './activity-log';

/** What a fresh entity run needs to announce a move after the outcome (workflows/provider-payment/state.ts eventsFor). */
export interface LateEventsRegistration {
  /** the payment workflow's ID (the subscriber that has closed) */
  subscriber: string;
  paymentKey: string;
  endpointUrl: string | null;
  /** the last move its backend was told (knowledge.ts, moveKey), or null */
  told: string | null;
  /**
   * Set when only visibility named the payment (its `ProviderPaymentId`, a search attribute any client with Temporal
   * access can set at a start): used for this run, but never named in the entity's result (`eventsFor`), so it is
   * never passed on as a record of the entity's own (workflows/provider-payment/facts.ts).
   */
  foundBy?: 'visibility';
}

/** No answer yet: the payment is still running (it subscribes by itself, or closes later): ask again later. */
export interface LateEventsNotYet {
  notYet: 'payment-running';
}

/** A registration; null when definitively none (no payment of ours follows it, or it asked for no events). */
export type LateEventsLookup = LateEventsRegistration | LateEventsNotYet | null;

export interface LateEventsActivities {
  /**
   * null when no closed payment of ours follows this provider payment, or it asked for no events; `notYet` while
   * that payment still runs. Throws when Temporal does not answer (retried, then the run asks again later).
   */
  findLateEventsRegistration(providerPaymentId: string): Promise<LateEventsLookup>;
}

/**
 * The move a delivery workflow's recent or pending event ids say was handed over last for this provider payment.
 * `recentIds` is bounded (100, carried over its continue-as-new; a run started after an idle close begins empty), so
 * a move handed over long before may be missing and announced again. That is a duplicate, never a wrong event: the
 * id of a move is stable (`<paymentKey>:moved:<providerPaymentId>:<moveKey>`, announce-late.ts), the delivery workflow
 * drops an id it still holds (payment-events/state.ts, add) and the receiver dedupes on `id` (docs/outbound-events.md,
 * "dedupe on it"). One payment hands over a handful of events, so 100 ids hold its last move in practice.
 */
export function lastMoveHandedOver(
  paymentKey: string,
  providerPaymentId: string,
  ids: readonly string[],
): string | null {
  const prefix = `${paymentKey}:moved:${providerPaymentId}:`;
  const moves = ids.filter((i) => i.startsWith(prefix));
  return moves.length > 0 ? moves[moves.length - 1]!.slice(prefix.length) : null;
}

/**
 * What a closed payment's outcome told its backend of this provider payment, as a moveKey; null when its outcome
 * carries no snapshot of it (CANCELLED or REJECTED before the service's payment, or no outcome at all: failed,
 * terminated, cancelled by Temporal, timed out). `result()` reads the closed run's history from Temporal: no worker
 * answers it.
 *
 * Deliberately not the payment's `state` query. (1) The payment is PINNED: only a worker of its own build answers a
 * query, so once that build is drained (no poller: the client throws a ServiceError over FAILED_PRECONDITION "No
 * poller seen for task queue recently") the lookup would stay unanswered for good and, after the entity's last try,
 * the move would never be announced: a lost refund. (2) What the payment READ is not what its backend was TOLD: its
 * events are handed over at phase changes only (payment-events/emit.ts), so a status read within a phase, or just
 * before the run failed, may never have left. With no outcome snapshot only the hand-over ids (lastMoveHandedOver)
 * say a move was told; none, and the entity announces the move. At worst that repeats in a
 * payment.moved_after_outcome what a phase event already carried: its id is stable
 * (`<paymentKey>:moved:<providerPaymentId>:<moveKey>`), so every later run or retry announcing the same move is
 * dropped by the delivery workflow and the receiver (docs/outbound-events.md, "dedupe on it"). A repeat beats a loss.
 */
async function outcomeKey(payment: WorkflowHandle, providerPaymentId: string): Promise<string | null> {
  // only a run with no result (failed, terminated, cancelled, timed out) or one gone past retention is "no outcome";
  // anything else (Temporal not answering, a codec error) is no answer yet: thrown, asked again (announce-late.ts)
  const outcome = (await payment.result().catch((error: unknown) => {
    if (error instanceof WorkflowFailedError || error instanceof WorkflowNotFoundError) return null;
    throw error;
  })) as PaymentOutcome | null;
  return outcome?.payment && outcome.payment.id === providerPaymentId ? moveKey(outcome.payment) : null;
}

export function createLateEventsActivities(
  deps: {
    client?: () => Client;
    /** the task queue of the entity asking (its own runs are read there); the running activity's by default */
    taskQueue?: () => string;
    /**
     * The payment workflow following a provider payment, and whether only visibility named it. By default the
     * entity's own ended runs first (their results, bound to the entity and written by its workers), then visibility.
     */
    paymentWorkflowOf?: (
      providerPaymentId: string,
    ) => Promise<{ subscriber: string; foundBy?: 'visibility' } | string | null>;
  } = {},
): LateEventsActivities {
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const paymentWorkflowOf =
    deps.paymentWorkflowOf ??
    (async (id: string) => {
      const ours = await paymentWorkflowOfEntityRuns(client(), taskQueue(), id);
      if (ours) return { subscriber: ours };
      const listed = await paymentWorkflowOfVisibility(client(), id);
      return listed ? { subscriber: listed, foundBy: 'visibility' as const } : null;
    });
  return {
    async findLateEventsRegistration(providerPaymentId) {
      const found = await paymentWorkflowOf(providerPaymentId);
      const { subscriber, foundBy } =
        typeof found === 'string' ? { subscriber: found, foundBy: undefined } : (found ?? {});
      if (!subscriber || !subscriber.startsWith(PAYMENT_ID_PREFIX)) return null;
      const paymentKey = subscriber.slice(PAYMENT_ID_PREFIX.length);
      const payment = client().workflow.getHandle(subscriber);
      // a payment still running subscribes by itself; only a closed one needs the entity to speak for it. One gone
      // past retention (named by an entity run kept longer) is closed: its delivery workflow may still answer
      const status = await payment.describe().then(
        (d) => d.status.name,
        (err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return 'GONE';
          throw err;
        },
      );
      if (status === 'RUNNING') return { notYet: 'payment-running' };
      let events;
      try {
        events = await client()
          .workflow.getHandle(paymentEventsWorkflowId(paymentKey))
          .query(paymentEventsStateQuery);
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return null; // never asked for events (or past retention)
        throw err;
      }
      const handedOver = lastMoveHandedOver(paymentKey, providerPaymentId, [
        ...(events.recentIds ?? []),
        ...events.pending.map((p) => p.id),
      ]);
      const told = handedOver ?? (await outcomeKey(payment, providerPaymentId));
      // A payment only visibility named (a search attribute any client with Temporal access can set at a start) must
      // show it followed this provider payment in a record no such client can write: a move of it handed over, or an
      // outcome naming it (bound to the payment, written by its workers), or its subscription in the entity's own
      // history (bound to the entity, sent by the payment's worker). Else nothing is told: a wrong backend told of
      // another payment's money is worse than a move left to the operator (logged).
      if (
        foundBy === 'visibility' &&
        told === null &&
        !(await subscribedBy(client(), taskQueue(), providerPaymentId, subscriber))
      ) {
        warnInActivity(
          'a payment named only by visibility shows no record of following this provider payment; not told',
          {
            providerPaymentId,
            subscriber,
          },
        );
        return null;
      }
      return {
        subscriber,
        paymentKey,
        endpointUrl: events.endpointUrl,
        told,
        ...(foundBy ? { foundBy } : {}),
      };
    },
  };
}
