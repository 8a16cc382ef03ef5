// providerPayment: the entity workflow of one provider payment, ID `provider-payment:<id>`
// (ARCHITECTURE: Workflows). Webhooks reach it by signalWithStart, so an event for a payment nobody here
// started (PAYIN, automatic conversion — spec: Payment rule 2, Events 2) is never lost.
import './polyfills';
import {
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  metricMeter,
  patched,
  setHandler,
  upsertMemo,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
// Zod-free imports only (docs/performance.md: no zod in the workflow bundle).
import type { Payment } from '../src/contract';
import { normalizePayment } from '../src/contract/payment-legacy-map';
import { ISO_DATETIME_UTC } from '../src/contract/payment-shape';
import { unknownPaymentValues } from '../src/contract/payment-status';
import { localReadActivities, readActivities } from './activity-options';
import {
  providerPaymentChangedSignal,
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  subscribeSignal,
  type ProviderPaymentChanged,
  type ProviderPaymentSnapshot,
} from './messages';
import type { ProviderPaymentInput } from './inputs';
import { parseOrThrow, ProviderPaymentInputShape } from './input-shapes';
import { BoundedIdSet, isTerminalStatus, mergePayment } from './payment-merge';
import { createIndexer, indexAtStart } from './indexing';
import { entityMemo, memoFingerprint, type EntityMemo } from './entity-memo';
import { OBSERVED_EVENT_TYPE } from './tell-entity';
import { applicationFailureOf } from './failures';
import {
  claimsFinalStatus,
  CONFIRM_RETRY_MS,
  confirms,
  MAX_PUSH_MISMATCHES,
  PUSH_MISMATCH_METRIC,
  PUSH_MISMATCH_PHASE,
  type PushMismatch,
  type UnconfirmedPush,
} from './push-confirmation';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/**
 * Issue 15 (the stale-entity gap): while the payment is not final and nothing is heard, the entity re-reads it
 * after 1, 5 and 15 quiet minutes before falling back to `reconcileEveryMs` (1 h): a dropped webhook leaves it
 * behind for minutes, not an hour. A new event starts the ladder again.
 */
const QUIET_READS_MS = [MINUTE, 5 * MINUTE, 15 * MINUTE];
const MAX_STATUS_HISTORY = 50;
/** Counted on the workflow metric meter (emitted outside replay only); documented in docs/spec-gaps.md (issue 9). */
export const UNKNOWN_VALUES_METRIC = 'xborder_provider_unknown_values_total';

type Cause = ProviderPaymentChanged['cause'];

/** patched() ids of changes to the entity's commands (histories recorded before them replay the old way). */
export const ENTITY_PATCHES = {
  /** an entity started with a snapshot does not signal that same snapshot back to the workflow that sent it */
  noEchoToStarter: 'entity-no-echo-to-starter',
  /** while nothing is heard the entity re-reads after 1, 5 and 15 quiet minutes (issue 15, stale entity) */
  readsSoonerWhenQuiet: 'entity-reads-sooner-when-quiet',
  /**
   * Issue 12, one marker per run: every patch above (and `entity-accepts-unknown-values`) is on without a marker
   * of its own, and the search attributes and memo the starter gave are not upserted again. Each marker costs two
   * events and a visibility write (the SDK upserts TemporalChangeVersion with it). Runs recorded before it have no
   * such marker: patched() is false on their replay and each old patch is read as it was.
   */
  leanHistory: 'entity-lean-history',
  /**
   * A pushed final status is held until a GET confirms it; the GET's answer is what is kept and forwarded
   * (workflows/push-confirmation.ts). Read at each pushed final status that would be held, never under the lean
   * marker: lean runs recorded before it took such a push as it came.
   */
  confirmsFinalPush: 'entity-confirms-final-push',
} as const;

/** The timestamp rule of the contract before issue 9: ISO 8601 in UTC, no offset (z.iso.datetime({ offset: false })). */
const isOldTimestamp = (value: unknown): boolean => typeof value === 'string' && ISO_DATETIME_UTC.test(value);
const OLD_LIFECYCLE_KEYS = ['createdAt', 'sentAt', 'completedAt', 'expiredAt', 'refundedAt'] as const;
/**
 * Would the contract before issue 9 have refused this payment? Unknown values; a lifecycle key missing or not
 * null/a UTC timestamp (it required all five); quote.expiresAt missing or not a UTC timestamp.
 */
export function refusedByOldContract(p: Payment): boolean {
  if (unknownPaymentValues(p).length > 0) return true;
  const lifecycle = (p.lifecycle ?? {}) as Record<string, unknown>;
  if (!p.lifecycle) return true;
  const badLifecycle = OLD_LIFECYCLE_KEYS.some(
    (k) => lifecycle[k] !== null && !isOldTimestamp(lifecycle[k]),
  );
  return badLifecycle || !isOldTimestamp(p.quote?.expiresAt);
}

export async function providerPayment(rawInput: ProviderPaymentInput): Promise<ProviderPaymentSnapshot> {
  const input = parseOrThrow(ProviderPaymentInputShape, rawInput);
  const id = input.providerPaymentId;
  const reconcileEveryMs = input.reconcileEveryMs ?? HOUR;
  const lingerMs = input.lingerAfterTerminalMs ?? 7 * DAY;
  const continueAsNewAfter = input.continueAsNewAfterEvents ?? 2000;
  // Read first, in the run's first workflow task (see ENTITY_PATCHES.leanHistory).
  const lean = patched(ENTITY_PATCHES.leanHistory);
  const isPatched = (id: string): boolean => lean || patched(id);
  const index = createIndexer(() => (lean ? indexAtStart() : null));

  const seen = new BoundedIdSet(input.seenEventIds ?? []);
  const subscribers = new Set(input.subscribers ?? []);
  /** the version each subscriber last received */
  const forwarded = new Map<string, number>();
  const statusHistory = [...(input.statusHistory ?? [])];
  let payment: Payment | null = input.payment !== undefined ? tryNormalize(input.payment) : null;
  let terminalSince = input.terminalSince ? Date.parse(input.terminalSince) : null;
  let version = payment ? 1 : 0;
  let lastCause: Cause = 'start';
  let wakeups = 0;
  let lastHeardAt = Date.now();
  /** timer reads since the last new event (QUIET_READS_MS) */
  let quietReads = 0;
  /** the memo this run has: under the lean patch, the one it was started with */
  /** a subscriber sent its own read of the payment (lean runs): as good as our first GET */
  let readBySubscriber = false;
  let lastMemo = lean ? memoFingerprint(workflowInfo().memo as Partial<EntityMemo> | undefined) : '';
  /** what of the current payment the contract does not know (issue 9, point 6): kept, logged, counted, shown */
  let unknownValues: string[] = [];
  /** pushed final statuses held for the GET that confirms them (ENTITY_PATCHES.confirmsFinalPush) */
  let unconfirmed: UnconfirmedPush[] = [];
  /** held pushes whose confirming read is in flight (still unconfirmed to anyone who asks) */
  let judgingNow: UnconfirmedPush[] = [];
  for (const held of input.unconfirmedPushes ?? []) {
    const p = tryNormalize(held.payment);
    if (p) unconfirmed.push({ eventId: held.eventId, payment: p, ...(held.cause ? { cause: held.cause } : {}) });
  }
  const pushMismatches: PushMismatch[] = [...(input.pushMismatches ?? [])];
  /** workflow time before which no confirming read is tried again (after one that failed) */
  let confirmNotBefore = 0;
  // a carried-over run already told its subscribers
  if (workflowInfo().continuedFromExecutionRunId) for (const s of subscribers) forwarded.set(s, version);
  // Started with a snapshot by a subscriber (startChild from a payment): it sent us what it has, so echoing it
  // back would only cost it a signal and a workflow task (issue 12). Later changes are forwarded as usual.
  else if (payment && subscribers.size > 0 && isPatched(ENTITY_PATCHES.noEchoToStarter))
    for (const s of subscribers) forwarded.set(s, version);

  function tryNormalize(raw: unknown): Payment | null {
    try {
      const p = normalizePayment(raw);
      // The contract refused these before issue 9 (point 6): histories recorded then replay the drop.
      if (refusedByOldContract(p) && !isPatched('entity-accepts-unknown-values')) {
        log.warn('payment payload not understood; dropped', { providerPaymentId: id });
        return null;
      }
      return p;
    } catch (err) {
      log.warn('payment payload not understood; dropped', { providerPaymentId: id, error: String(err) });
      return null;
    }
  }

  function accept(raw: unknown, cause: Cause): void {
    const incoming = tryNormalize(raw);
    if (!incoming) return;
    if (incoming.id !== id) {
      log.warn('payment of another id sent to this entity; dropped', {
        providerPaymentId: id,
        got: incoming.id,
      });
      return;
    }
    lastHeardAt = Date.now();
    const merged = mergePayment(payment, incoming);
    if (!merged.changed) return; // duplicate, stale or out of order: never backwards
    payment = merged.payment;
    version++;
    lastCause = cause;
    if (merged.statusChanged) {
      statusHistory.push({ at: new Date().toISOString(), status: payment.status, cause });
      if (statusHistory.length > MAX_STATUS_HISTORY) statusHistory.shift();
    }
    // a refund after EXPIRED or COMPLETED (spec: States and transitions, row 4) restarts the linger period
    terminalSince = isTerminalStatus(payment) ? Date.now() : null;
    noteUnknownValues();
    reindex();
    updateMemo();
  }

  /** The entity's search attributes; PaymentPhase only once a push was not borne out (`xborder stuck`). */
  function reindex(): void {
    const flagged = pushMismatches.length > 0 ? { phase: PUSH_MISMATCH_PHASE } : {};
    if (payment) index({ ...flagged, status: payment.status, providerPaymentId: id, customerId: payment.customerId });
    else if (pushMismatches.length > 0) index({ ...flagged, providerPaymentId: id }); // a push for a payment the service does not have
  }

  /**
   * An unknown status is treated as in progress (not terminal: reconciliation goes on); unknown shapes are
   * passed through. Each new finding is logged and counted; the memo flags it, and the PaymentStatus search
   * attribute carries an unknown status as sent, which `xborder stuck` lists (UNKNOWN_PROVIDER_STATUS).
   */
  function noteUnknownValues(): void {
    const found = payment ? unknownPaymentValues(payment) : [];
    const fresh = found.filter((f) => !unknownValues.includes(f));
    unknownValues = found;
    if (fresh.length === 0) return;
    log.warn('provider payment carries values the contract does not know; passed through', {
      providerPaymentId: id,
      unknown: fresh,
    });
    for (const what of fresh)
      metricMeter
        .createCounter(UNKNOWN_VALUES_METRIC, undefined, 'Provider payment values the contract does not know')
        .add(1, { kind: what.startsWith('status ') ? 'status' : what });
  }

  const role = (): ProviderPaymentSnapshot['role'] => entityMemo(payment, subscribers.size, []).role;
  const linkAccountId = (): string | null => entityMemo(payment, subscribers.size, []).linkAccountId;

  function updateMemo(): void {
    const memo = entityMemo(payment, subscribers.size, unknownValues);
    const fingerprint = memoFingerprint(memo);
    if (fingerprint === lastMemo) return;
    lastMemo = fingerprint;
    upsertMemo({ ...memo });
  }

  function snapshot(): ProviderPaymentSnapshot {
    return {
      providerPaymentId: id,
      payment,
      subscribers: [...subscribers],
      seenEventIds: seen.size,
      statusHistory: [...statusHistory],
      role: role(),
      linkAccountId: linkAccountId(),
      completedAfterTerminal: false,
      unknownValues: [...unknownValues],
      unconfirmed: [...judgingNow, ...unconfirmed].map((u) => ({ eventId: u.eventId, status: u.payment.status })),
      pushMismatches: [...pushMismatches],
    };
  }

  setHandler(providerPaymentEventSignal, (event) => {
    wakeups++; // every signal lets the loop look at history size again
    if (!seen.add(event.eventId)) return; // Temporal or the sender may deliver an event twice
    quietReads = 0;
    // a state the payment workflow read itself (tell-entity.ts) is a reconcile, not a webhook
    const cause = event.type === OBSERVED_EVENT_TYPE ? 'reconcile' : 'event';
    if (holdsForConfirmation(event.eventId, event.payment, cause)) return;
    accept(event.payment, cause);
  });

  /**
   * A pushed final status that would change what the entity holds waits for a GET (push-confirmation.ts),
   * whatever the event's type says: the type comes with the push. A push that changes nothing (a duplicate
   * under a new id, a stale copy) costs no read. Non-final statuses are taken as hints, as before.
   */
  function holdsForConfirmation(eventId: string, raw: unknown, cause: 'event' | 'reconcile'): boolean {
    const pushed = tryNormalize(raw);
    if (!pushed || pushed.id !== id || !claimsFinalStatus(pushed)) return false;
    if (payment && !mergePayment(payment, pushed).changed) return false;
    // Not memoized: a run that began on older code (AUTO_UPGRADE) starts confirming at its first final push
    // after the upgrade; on replay the marker's place in history says which pushes were held.
    if (!patched(ENTITY_PATCHES.confirmsFinalPush)) return false;
    unconfirmed.push({ eventId, payment: pushed, cause });
    log.info('pushed final status held for confirmation by GET', { providerPaymentId: id, eventId, status: pushed.status });
    return true;
  }
  setHandler(subscribeSignal, ({ workflowId, has }) => {
    subscribers.add(workflowId);
    forwarded.delete(workflowId);
    wakeups++;
    // Lean runs (issue 12): the subscriber's own read (its POST's answer) is merged like a read of ours, and
    // the subscriber is sent only what is newer than it has. Older runs ignore `has`, as their code did.
    if (lean && has !== undefined) {
      accept(has, 'reconcile');
      readBySubscriber = true;
      const theirs = tryNormalize(has);
      if (payment && theirs && !mergePayment(theirs, payment).changed) forwarded.set(workflowId, version);
    }
    updateMemo();
  });
  setHandler(providerPaymentSnapshotQuery, snapshot);

  async function reconcile(): Promise<void> {
    // pushes held before the read started are judged by it; one that lands while it is in flight waits for the next
    const judging = (judgingNow = unconfirmed);
    unconfirmed = [];
    try {
      const read = await readActivities.getPayment(id);
      judgingNow = [];
      judge(read, judging);
    } catch (err) {
      judgingNow = [];
      if (saysNoSuchPayment(err)) notFound(judging);
      else unconfirmed = [...judging, ...unconfirmed];
      log.warn('reconciliation read failed; will try again', { providerPaymentId: id, error: String(err) });
    } finally {
      lastHeardAt = Date.now();
    }
  }

  /**
   * The read that confirms held pushes: a local activity (a marker in the task that asks, no activity task and
   * no extra workflow task), retried by Temporal for 10 minutes. If the service cannot be reached the pushes
   * stay held, never trusted, and the read is tried again CONFIRM_RETRY_MS later.
   */
  async function confirmHeldPushes(): Promise<void> {
    const judging = (judgingNow = unconfirmed);
    unconfirmed = [];
    try {
      const read = await localReadActivities.getPayment(id);
      judgingNow = [];
      confirmNotBefore = judge(read, judging) ? 0 : Date.now() + CONFIRM_RETRY_MS;
    } catch (err) {
      judgingNow = [];
      if (saysNoSuchPayment(err)) return notFound(judging);
      unconfirmed = [...judging, ...unconfirmed];
      confirmNotBefore = Date.now() + CONFIRM_RETRY_MS;
      log.warn('confirming read failed; pushed final status stays held', {
        providerPaymentId: id,
        error: String(err),
      });
    }
  }

  /** The GET's answer is the truth: it is what is merged and forwarded; a push it does not bear out is a mismatch. */
  function judge(raw: unknown, judging: UnconfirmedPush[]): boolean {
    const read = tryNormalize(raw);
    if (!read || read.id !== id) {
      unconfirmed = [...judging, ...unconfirmed]; // nothing to judge by: still held
      accept(raw, 'reconcile'); // logs what was dropped, as before
      return false;
    }
    // a read that bears a push out takes the push's cause (a webhook's `event`); otherwise it is a `reconcile`
    let cause: Cause = 'reconcile';
    let mismatched = false;
    for (const held of judging) {
      if (confirms(read, held.payment)) cause = held.cause ?? 'event';
      else {
        mismatched = true;
        recordMismatch(held, read.status);
      }
    }
    accept(raw, cause);
    if (mismatched) reindex(); // the read may have changed nothing, yet the entity is now listed
    return true;
  }

  /** Kept (snapshot, carried over), logged, counted; the push itself is dropped. */
  function recordMismatch(held: UnconfirmedPush, read: string): void {
    const mismatch: PushMismatch = {
      eventId: held.eventId,
      pushed: held.payment.status,
      read,
      at: new Date().toISOString(),
    };
    pushMismatches.push(mismatch);
    if (pushMismatches.length > MAX_PUSH_MISMATCHES) pushMismatches.shift();
    log.warn('pushed final status not borne out by the service; kept, not forwarded', {
      providerPaymentId: id,
      ...mismatch,
    });
    metricMeter
      .createCounter(PUSH_MISMATCH_METRIC, undefined, 'Pushed final statuses the service did not confirm')
      .add(1, { pushed: mismatch.pushed, read });
  }

  function notFound(judging: UnconfirmedPush[]): void {
    for (const held of judging) recordMismatch(held, 'NOT_FOUND');
    if (judging.length > 0) reindex();
  }

  /** The service answered that it has no such payment (404): an answer, not a fault to retry. */
  function saysNoSuchPayment(err: unknown): boolean {
    const type = applicationFailureOf(err)?.type;
    return type === 'NotFoundError' || type === 'NOT_FOUND';
  }

  async function forwardChanges(): Promise<void> {
    if (!payment) return;
    // what is sent is captured before awaiting: events may land while a signal is in flight
    const sending = payment;
    const sendingVersion = version;
    for (const subscriber of [...subscribers]) {
      const had = forwarded.get(subscriber);
      if (had === sendingVersion) continue;
      const cause: Cause = had === undefined ? 'subscribe' : lastCause;
      try {
        await getExternalWorkflowHandle(subscriber).signal(providerPaymentChangedSignal, {
          providerPaymentId: id,
          payment: sending,
          cause,
        });
        forwarded.set(subscriber, sendingVersion);
      } catch (err) {
        // the subscriber is gone (completed or cancelled): stop telling it
        log.info('subscriber unreachable; removed', {
          providerPaymentId: id,
          subscriber,
          error: String(err),
        });
        subscribers.delete(subscriber);
        forwarded.delete(subscriber);
      }
    }
  }

  const unforwarded = () => payment !== null && [...subscribers].some((s) => forwarded.get(s) !== version);

  /** Before this run ends: tell every subscriber the latest, again if an event landed while signals were in flight. */
  async function forwardUntilSettled(): Promise<void> {
    do {
      await condition(allHandlersFinished);
      await forwardChanges();
    } while (unforwarded());
  }

  function historyIsLarge(): boolean {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= continueAsNewAfter;
  }

  // A fresh run with no snapshot (started by a webhook, or by an event after the entity closed) reads the
  // payment first, so it never trusts one event alone — unless a subscriber already sent the service's answer
  // (its POST's, in a signal delivered with this first task: lean runs only).
  if (input.payment === undefined && !workflowInfo().continuedFromExecutionRunId && !readBySubscriber)
    await reconcile();
  if (payment) {
    noteUnknownValues();
    reindex();
    updateMemo();
  }

  for (;;) {
    if (unconfirmed.length > 0 && Date.now() >= confirmNotBefore) await confirmHeldPushes();
    await forwardChanges();
    if (historyIsLarge()) {
      await forwardUntilSettled(); // the next run takes every subscriber as told
      return continueAsNew<typeof providerPayment>({
        providerPaymentId: id,
        payment: payment ?? undefined,
        subscribers: [...subscribers],
        seenEventIds: seen.toArray(),
        statusHistory,
        terminalSince: terminalSince === null ? null : new Date(terminalSince).toISOString(),
        reconcileEveryMs: input.reconcileEveryMs,
        lingerAfterTerminalMs: input.lingerAfterTerminalMs,
        continueAsNewAfterEvents: input.continueAsNewAfterEvents,
        ...(unconfirmed.length > 0 ? { unconfirmedPushes: unconfirmed } : {}),
        ...(pushMismatches.length > 0 ? { pushMismatches } : {}),
      });
    }
    const now = Date.now();
    let wakeAt: number;
    if (payment && isTerminalStatus(payment)) {
      // Linger: a refund (row 4) or a legacy late funding (row 5) may still follow a terminal status.
      terminalSince ??= now;
      wakeAt = terminalSince + lingerMs;
      if (now >= wakeAt && unconfirmed.length === 0) break; // a held push is judged before the entity ends
    } else {
      const quietMs = isPatched(ENTITY_PATCHES.readsSoonerWhenQuiet) ? QUIET_READS_MS[quietReads] : undefined;
      wakeAt = lastHeardAt + Math.min(quietMs ?? reconcileEveryMs, reconcileEveryMs);
      if (now >= wakeAt) {
        quietReads++;
        await reconcile(); // events are overdue
        continue;
      }
    }
    // a held push is judged at once, or, after a confirming read that failed, at confirmNotBefore
    if (unconfirmed.length > 0) {
      if (now >= confirmNotBefore) continue; // pushed while a read was in flight: judged at the top now
      wakeAt = wakeAt > now ? Math.min(wakeAt, confirmNotBefore) : confirmNotBefore;
    }
    const v = version;
    const w = wakeups;
    await condition(() => version !== v || wakeups !== w || unforwarded(), Math.max(1, wakeAt - now));
  }

  await forwardUntilSettled();
  return { ...snapshot(), completedAfterTerminal: true };
}
