// payment: validate → rate → limits → create → follow the provider payment to an outcome
// (ARCHITECTURE: Workflows; spec: States and transitions). ID `payment:<key>` chosen by the caller.
import {
  ApplicationFailure,
  allHandlersFinished,
  CancellationScope,
  condition,
  currentUpdateInfo,
  log,
  patched,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { CreatePaymentRequest, Payment, Violation } from '../src/contract';
import { isInForce } from '../src/contract/rules';
import { validatePaymentRequest } from '../src/contract/validate-payment';
import type { RateQuery } from '../activities/types';
import { createActivities, localRateActivities, rateActivities, readActivities } from './activity-options';
import {
  awaitCreatedForRequestUpdate,
  awaitCreatedUpdate,
  cancelUpdate,
  createdAnswerQuery,
  PAYMENT_FAILURE_TYPES,
  paymentStateQuery,
  providerPaymentChangedSignal,
  providerPaymentWorkflowId,
  requoteUpdate,
  resolveCreateUpdate,
  type PaymentAlert,
  type PaymentAlertKind,
  type PaymentCreated,
  type PaymentOutcome,
  type PaymentState,
  type ResolveCreateDecision,
} from './messages';
import type { PaymentInput, ProviderPaymentInput } from './inputs';
import { PaymentInputShape } from './input-shapes';
import { ENTITY_IGNORES_PARENT_CANCEL, startOrSubscribe } from './follow-entity';
import { entityMemo } from './entity-memo';
import { unknownPaymentValues } from '../src/contract/payment-status';
import { tellEntity } from './tell-entity';
import { requestFingerprint } from './request-fingerprint';
import type { PaymentPhase, TimelineEntry } from './types';
import { mergePayment } from './payment-merge';
import { applicationFailureOf, failureViolation, providerViolations, parseWorkflowInput } from './failures';
import {
  driftViolations,
  feeViolations,
  fundingDeadlineOf,
  hasFundsIn,
  isFunded,
  isKnownStatus,
  isUnfundable,
  outcomeOf,
  phaseOf,
  pullsFromAccount,
  quoteExpiresAtMs,
} from './payment-rules';
import { createIndexer, indexAtStart, indexPairs } from './indexing';
import { paymentEventEmitter } from './payment-events/emit';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** how long the end of a payment waits for another funded payment of the request to end (then NEEDS_ATTENTION) */
const STILL_MOVING_LIMIT_MS = 30 * DAY;
/** past that limit (NEEDS_ATTENTION), how often the other payment is still read: the run ends once it has ended */
const STILL_MOVING_RECHECK_MS = DAY;
const MAX_TIMELINE = 200;
/** changes kept for payments whose create is not recorded yet: one per create in flight, a few at most */
const MAX_TOLD_EARLY = 10;

/**
 * patched() ids of the changes that alter the workflow's commands (issue 9, point 10): histories recorded
 * before them still replay the old way (test/replay).
 */
export const PAYMENT_PATCHES = {
  /** a Temporal cancel request is handled like the `cancel` update (the body runs non-cancellable) */
  temporalCancelAsCancelUpdate: 'payment-temporal-cancel-as-cancel-update',
  /** a requote follows its new payment first and makes it live only when nothing changed meanwhile */
  requoteRechecks: 'payment-requote-rechecks-after-every-await',
  /** with funds on two payments, the workflow ends only once neither is still moving */
  followEveryFundedPayment: 'payment-follow-every-funded-payment',
  /** an accepted cancel keeps listening until the provider payment can no longer be funded */
  cancelListensUntilUnfundable: 'payment-cancel-listens-until-unfundable',
  /** a create that may have reached the service ends in NEEDS_ATTENTION, never REJECTED nor a failed workflow */
  createOutcomeUnknownNeedsAttention: 'payment-create-outcome-unknown-needs-attention',
  /** a pending cancel of a payment pulled from an account is refused (its funds move at creation) */
  pullPaymentCancelRefused: 'payment-pull-payment-cancel-refused',
  /** a cancel that came while the first getRate ran ends the payment before anything is created */
  firstCreateChecksCancel: 'payment-first-create-checks-cancel',
  /** a requote update ID seen again gets its first answer back, with no rate, create or follow */
  requoteAnswersOnce: 'payment-requote-answers-once',
  /** what the payment's own GET found new is told to the providerPayment entity (issue 15, stale entity) */
  tellsEntityWhatItRead: 'payment-tells-entity-what-it-read',
  /**
   * the first create answers `awaitCreated` as soon as POST /payments returns, before the entity is started or
   * subscribed to (issue 12: two workflow tasks and two server round trips off the time to `created`)
   */
  createdBeforeFollow: 'payment-created-before-follow',
  /** getRate runs as a local activity (issue 12: a short idempotent read; one workflow task fewer per quote) */
  rateAsLocalActivity: 'payment-rate-local-activity',
  /** the entity is a child whose parent's cancel never reaches it (follow-entity.ts; issue 9, point 2) */
  entityIgnoresParentCancel: ENTITY_IGNORES_PARENT_CANCEL,
  /**
   * documentReference in the request is accepted and ignored at every date (spec: POST /payments body — a legacy
   * field with no date); runs recorded before refused it from 2026-03-30. Not covered by `leanHistory`: read
   * (and its marker recorded) only for a request that carries documentReference on or after that date.
   */
  acceptsDocumentReference: 'payment-accepts-document-reference',
  /**
   * Issue 12, one marker per run: every patch above is on without a marker of its own; VALIDATING is not
   * indexed (validation runs within the first workflow task, so nobody can see it); the phase startPayment set at
   * start is not upserted again; the entity is started with its search attributes and memo. Each marker costs
   * two events and a visibility write (the SDK upserts TemporalChangeVersion with it). Runs recorded before it
   * have no such marker: patched() is false on their replay and each old patch is read as it was.
   */
  leanHistory: 'payment-lean-history',
  /**
   * A change the entity tells before this workflow has recorded the create that made the payment (the create's
   * activity subscribes before it returns, and the entity tells a subscriber once) is kept and applied when the
   * create is recorded; before, it was dropped and the payment showed the POST's status until the next reconcile.
   * Read (the marker written) only when such a change comes.
   */
  keepsChangesToldBeforeCreate: 'payment-keeps-changes-told-before-create',
  /**
   * An accepted cancel ends CANCELLED only once the provider says every tracked payment can no longer be funded
   * (EXPIRED or a cancelled status, read by GET at our estimated deadline and then every reconcileEveryMs), never
   * at our computed deadline alone; meanwhile the phase is CANCELLING. Read when a cancel is accepted.
   */
  cancelEndsOnProviderWord: 'payment-cancel-ends-on-provider-word',
  /**
   * Past STILL_MOVING_LIMIT_MS (NEEDS_ATTENTION) the still-moving payment is read once a day: its end, heard or
   * read, ends the run. Before, the wait had no timer: a missed notice kept the run, and its pinned build, open for
   * good (docs/deployment.md, "A pinned run that does not end"). Read when the wait starts.
   */
  stillMovingRechecked: 'payment-still-moving-rechecked-daily',
} as const;

type CreateResult =
  | { created: PaymentCreated & { outcome: 'CREATED' } }
  | { rejected: Violation[]; payment: Payment | null }
  /** the create may have made a payment we never saw (CREATE_OUTCOME_UNKNOWN, or retries ran out) */
  | { attention: string; idempotencyKey: string }
  /** a requote lost a race (funds, the end, a cancel): its new payment, if any, is tracked but never live */
  | { lost: string; payment: Payment | null };

type CancelRequest = NonNullable<PaymentState['cancel']>;

export async function payment(rawInput: PaymentInput): Promise<PaymentOutcome> {
  const input = parseWorkflowInput(PaymentInputShape, rawInput);
  const events = paymentEventEmitter(input); // outbound events (docs/outbound-events.md); silent without input.events
  const workflowId = workflowInfo().workflowId;
  const holidays = new Set(input.options?.holidays ?? []);
  const expiredLingerMs = input.options?.expiredLingerMs ?? 24 * HOUR;
  const reconcileEveryMs = input.options?.reconcileEveryMs ?? 6 * HOUR;
  // The lean decision (PAYMENT_PATCHES.leanHistory) is read at the first patch the run reads, where its
  // marker is then recorded; every patch of today goes through isPatched.
  let lean: boolean | undefined;
  const leanHistory = (): boolean => (lean ??= patched(PAYMENT_PATCHES.leanHistory));
  const isPatched = (id: string): boolean => leanHistory() || patched(id);
  const index = createIndexer(() => (leanHistory() ? indexAtStart() : null));

  // ---- state ----
  let phase = 'VALIDATING' as PaymentPhase; // `as`: changed by handlers, so no narrowing
  /** every provider payment this workflow created, by id (requote adds one; old ones stay tracked) */
  const tracked = new Map<string, Payment>();
  let activeId: string | null = null;
  let requotes = 0;
  let created = null as PaymentCreated | null;
  let outcome = null as PaymentOutcome | null;
  let cancel = null as CancelRequest | null;
  let requoting = false;
  /** requote update ID → its number n (key `<workflowId>:create:<n>`): one ID never creates twice */
  const requoteNumbers = new Map<string, number>();
  /** requote update ID → its first answer (or refusal), given again when the same ID comes back */
  const requoteAnswers = new Map<string, { answer: PaymentCreated } | { refused: string }>();
  const alerts: PaymentAlert[] = [];
  const alerted = new Set<string>();
  /** a create whose outcome is unknown, waiting for an operator (`resolveCreate`) */
  let attention = null as { reason: string; idempotencyKey: string; first: boolean } | null;
  let resolution = null as ResolveCreateDecision | null;
  /** a `resolveCreate` of a requote's create is reading the named payment */
  let resolvingRequote = false;
  let version = 0; // bumped on every change the main loop must look at
  let lastHeardAt = Date.now();
  let expiredSince: number | null = null;
  /** when the followed payment ended while another funded one still moved */
  let stillMovingSince: number | null = null;
  /** the accepted cancel waits for the provider's word (PAYMENT_PATCHES.cancelEndsOnProviderWord) */
  let cancelWaitsForProvider = false;
  /** after an accepted cancel: since when the provider says no tracked payment can be funded any more */
  let unfundableSince: number | null = null;
  /** after an accepted cancel: when each tracked payment was last read to ask whether it can still be funded */
  const cancelReads = new Map<string, number>();
  let stillMovingRechecked: boolean | undefined;
  const timeline: TimelineEntry[] = [];
  /** changes told for a provider payment not tracked yet (see PAYMENT_PATCHES.keepsChangesToldBeforeCreate) */
  const toldEarly = new Map<string, { payment: Payment; cause: string }>();
  let keepsToldEarly: boolean | undefined;

  const pendingCancel = () => cancel; // read through a function: handlers change it between awaits
  const active = (): Payment | null => (activeId ? (tracked.get(activeId) ?? null) : null);
  const fundsIn = (): boolean => [...tracked.values()].some(isFunded);
  const isQuoteExpired = (p: Payment): boolean => {
    const at = quoteExpiresAtMs(p);
    return at !== null && Date.now() >= at;
  };

  function note(kind: string, detail?: string): void {
    timeline.push({ at: new Date().toISOString(), kind, ...(detail !== undefined ? { detail } : {}) });
    if (timeline.length > MAX_TIMELINE) timeline.shift();
  }

  /** Loud, never dropped: state, outcome, worker log, and a metric at close (payment-metrics-interceptor.ts). */
  function raise(
    kind: PaymentAlertKind,
    providerPaymentId: string | null,
    detail: string,
    once = kind + providerPaymentId,
  ): void {
    if (alerted.has(once)) return;
    alerted.add(once);
    alerts.push({ at: new Date().toISOString(), kind, providerPaymentId, detail });
    note('alert', `${kind}: ${detail}`);
    // ids and kinds only: no personal data in logs
    log.warn(`payment alert ${kind}`, { workflowId, providerPaymentId, detail });
  }

  function fundingDeadline(p: Payment | null): Date | null {
    return p ? fundingDeadlineOf(p, holidays) : null;
  }

  function setPhase(next: PaymentPhase, indexed = true): void {
    if (next !== phase) note('phase', `${phase} → ${next}`);
    phase = next;
    setCurrentDetails(describe());
    events.emit(state, active);
    if (!indexed) return;
    const p = active();
    const quoteAt = p ? quoteExpiresAtMs(p) : null;
    index({
      phase,
      status: p?.status ?? null,
      providerPaymentId: p?.id ?? null,
      customerId: p?.customerId ?? null,
      quoteExpiresAt: quoteAt === null ? null : new Date(quoteAt),
      fundingDeadline: fundingDeadline(p),
    });
  }

  function describe(): string {
    const p = active();
    const lines = [`**${phase}**`];
    if (p) lines.push(`provider payment ${p.id}: ${p.status}`, `quote expires ${p.quote?.expiresAt ?? '—'}`);
    const deadline = fundingDeadline(p);
    if (deadline && (phase === 'AWAITING_FUNDS' || phase === 'QUOTE_EXPIRED' || phase === 'CANCELLING'))
      lines.push(`funding deadline ${deadline.toISOString()}`);
    if (requotes > 0) lines.push(`requotes: ${requotes}`);
    return lines.join('\n\n');
  }

  function state(): PaymentState {
    const p = active();
    return {
      workflowId,
      phase,
      providerPaymentId: p?.id ?? null,
      providerStatus: p?.status ?? null,
      quote: p?.quote ?? null,
      fundingInstructions: p?.fundingInstructions ?? null,
      fundingDeadline: fundingDeadline(p)?.toISOString() ?? null,
      customerId: p?.customerId ?? '',
      requotes,
      superseded: [...tracked.values()]
        .filter((t) => t.id !== activeId)
        .map((t) => ({ id: t.id, status: t.status })),
      providerError: (p as { error?: unknown } | null)?.error ?? null,
      providerStatusReasons: (p as { statusReasons?: unknown } | null)?.statusReasons ?? null,
      cancel: cancel ? { ...cancel } : null,
      alerts: [...alerts],
      outcome,
      timeline: [...timeline],
    };
  }

  /** Folds a snapshot of one of our provider payments in; never backwards (see payment-merge.ts). */
  function absorb(incoming: Payment, cause: string): void {
    const current = tracked.get(incoming.id);
    if (!current) {
      // Perhaps ours, its create not recorded yet: kept (the newest wins) until track() records it.
      if (toldEarly.size >= MAX_TOLD_EARLY && !toldEarly.has(incoming.id)) return;
      if (!(keepsToldEarly ??= patched(PAYMENT_PATCHES.keepsChangesToldBeforeCreate))) return;
      const kept = toldEarly.get(incoming.id);
      toldEarly.set(incoming.id, {
        payment: kept ? mergePayment(kept.payment, incoming).payment : incoming,
        cause: `${cause}, told before the create was recorded`,
      });
      return;
    }
    lastHeardAt = Date.now();
    const merged = mergePayment(current, incoming);
    if (!merged.changed) return;
    tracked.set(incoming.id, merged.payment);
    version++;
    if (merged.statusChanged)
      note('status', `${incoming.id}: ${current.status} → ${merged.payment.status} (${cause})`);
    const fresh = merged.payment;
    if (!isKnownStatus(fresh.status))
      raise(
        'UNKNOWN_STATUS',
        fresh.id,
        `status ${fresh.status} is not in the contract; counted as in progress`,
        `UNKNOWN_STATUS:${fresh.id}:${fresh.status}`,
      );
    if (isFunded(fresh)) {
      // spec: States and transitions, row 2 — a late notice can fund a superseded payment: every one is followed
      for (const other of tracked.values())
        if (other.id !== fresh.id && hasFundsIn(fresh) && hasFundsIn(other)) {
          const pair = [other.id, fresh.id].sort().join('+');
          raise(
            'DOUBLE_FUNDED',
            fresh.id,
            `funds arrived on ${fresh.id} and ${other.id}: two payments of one request carry money`,
            `DOUBLE_FUNDED:${pair}`,
          );
        }
      // a cancelled status of the provider's own is unknown to the contract, so "funded" above; it carries no funds
      if (cancel?.decision === 'ACCEPTED' && !isUnfundable(fresh))
        raise(
          'FUNDED_AFTER_CANCEL',
          fresh.id,
          `funds arrived on ${fresh.id} after the cancel was accepted; the payment is followed to its real end`,
        );
    }
    const followed = active();
    // Funds sent with the instructions of a superseded quote: that payment is the one that goes on. An unknown
    // status without sentAt is no proof of funds: the followed payment stays (review of issue 9, finding 6).
    // (activeId null: the create or adoption that tracked it sets activeId next.)
    if (activeId !== null && incoming.id !== activeId && hasFundsIn(merged.payment) && !(followed && isFunded(followed))) {
      activeId = incoming.id;
      note('followed', `funds arrived on superseded payment ${incoming.id}; following it`);
    }
  }

  function refusal(type: string, message: string): ApplicationFailure {
    return ApplicationFailure.create({ type, message, nonRetryable: true });
  }

  // ---- handlers ----
  // A Temporal cancel request (handle.cancel(), a parent's cancel) is a request like the `cancel` update:
  // accepted before funds, else the payment is followed to its real end (issue 9, point 2). Decided once, by
  // whichever reads it first: a handler, or the body before its first step. Histories recorded before the patch
  // cancelled a handler's activities/children in flight (RequestCancelActivityTask), so their handlers stay
  // cancellable on replay. Not read before the first setHandler: an update delivered with the start is accepted
  // there, and recorded histories have the patch marker after that acceptance.
  let shieldDecision: boolean | undefined;
  const shieldFromTemporalCancel = (): boolean =>
    (shieldDecision ??= isPatched(PAYMENT_PATCHES.temporalCancelAsCancelUpdate));
  // Handler bodies run non-cancellable: a Temporal cancel request is a request, decided like the `cancel`
  // update (below), never an interruption of a create or a wait in flight.
  const shielded =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      shieldFromTemporalCancel() ? CancellationScope.nonCancellable(() => fn(...args)) : fn(...args);

  setHandler(paymentStateQuery, state);
  setHandler(providerPaymentChangedSignal, ({ payment: p, cause }) => absorb(p, cause));
  /** awaitCreated's answer once there is one; null while it waits. */
  function createdAnswerNow(): PaymentCreated | null {
    if (created) return created;
    if (attention?.first) return { outcome: 'NEEDS_ATTENTION', reason: attention.reason };
    if (outcome === null) return null;
    const violations: Violation[] =
      outcome.outcome === 'REJECTED'
        ? outcome.violations
        : [{ path: '', rule: outcome.outcome, message: 'the payment ended before a provider payment was created' }];
    return { outcome: 'REJECTED', violations };
  }
  // A query only (no command): a closed payment still answers a start that reached it late (startPayment).
  setHandler(createdAnswerQuery, createdAnswerNow);
  const awaitCreated = shielded(async (): Promise<PaymentCreated> => {
    const seen: { answer: PaymentCreated | null } = { answer: null };
    await condition(() => (seen.answer = createdAnswerNow()) !== null);
    return seen.answer!;
  });
  setHandler(awaitCreatedUpdate, awaitCreated);
  // The same answer for a caller that proves it sends this workflow's request (issue 12): a reused key is
  // refused here, in the validator (no history written), instead of by the client reading our first event.
  let ownFingerprint: string | undefined;
  setHandler(awaitCreatedForRequestUpdate, awaitCreated, {
    validator: (arg: { requestFingerprint: string }) => {
      ownFingerprint ??= requestFingerprint(rawInput);
      if (arg?.requestFingerprint !== ownFingerprint)
        throw refusal(
          PAYMENT_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED,
          'this payment key is already used by another request',
        );
    },
  });

  /** Why a cancel cannot be accepted now, or null. */
  function cancelBlocker(): string | null {
    if (outcome) return `the payment already ended: ${outcome.outcome}`;
    if (fundsIn()) return 'funds are in: the payment can no longer be cancelled';
    // spec: States and transitions, rule 1 — a pull payment moves the funds when it is created; a create whose
    // outcome is unknown (NEEDS_ATTENTION) may have made one we never saw
    if ((tracked.size > 0 || attention !== null) && pullsFromAccount(request))
      return 'a payment pulled from an account moves its funds when created: it cannot be cancelled';
    // After the provider's EXPIRED a refund of late funds may still come (spec: States and transitions, row 4).
    if (active()?.status === 'EXPIRED')
      return 'the provider expired the payment: it is followed until a late refund could no longer arrive';
    return null;
  }

  setHandler(
    cancelUpdate,
    shielded(async (arg: { reason?: string }): Promise<PaymentState> => {
      cancel = { reason: arg?.reason ?? 'cancelled by the caller', decision: 'PENDING', via: 'UPDATE' };
      version++;
      await condition(() => cancel?.decision !== 'PENDING');
      if (cancel?.decision === 'REFUSED') {
        throw refusal(
          PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
          'funds arrived before the cancel was applied; the payment goes on',
        );
      }
      return state();
    }),
    {
      validator: (_arg: { reason?: string }) => {
        const blocker = cancelBlocker();
        if (blocker) throw refusal(PAYMENT_FAILURE_TYPES.CANCEL_REFUSED, blocker);
        if (cancel?.decision === 'ACCEPTED')
          throw refusal(PAYMENT_FAILURE_TYPES.CANCEL_REFUSED, 'the payment is already cancelled');
        if (cancel) throw refusal(PAYMENT_FAILURE_TYPES.CANCEL_REFUSED, 'a cancel is already being applied');
      },
    },
  );

  /** Why a requote cannot go on now, or null (spec: States and transitions; docs/spec-gaps.md, "Requote"). */
  function requoteBlocker(): string | null {
    if (outcome) return `the payment already ended: ${outcome.outcome}`;
    if (fundsIn()) return 'funds are in: the quote is already used';
    if (cancel) return 'the payment is being cancelled or was cancelled';
    if (attention) return 'a create of this payment needs an operator first';
    if (phase !== 'AWAITING_FUNDS' && phase !== 'QUOTE_EXPIRED')
      return `nothing to requote in phase ${phase}`;
    if (pullsFromAccount(request)) return 'a payment pulled from an account has no quote to wait on';
    const p = active();
    // A second set of live funding instructions invites two payments: a requote waits for the quote's end.
    if (p && !isQuoteExpired(p))
      return `the quote is still valid until ${p.quote?.expiresAt ?? '?'}: requote once it has expired`;
    return null;
  }

  /** Why a requote in flight must not make its new payment live, or null. Checked after every await. */
  function requoteLostTo(): string | null {
    if (outcome) return `the payment ended (${outcome.outcome}) while the requote was in flight`;
    const funded = [...tracked.values()].find(isFunded);
    if (funded) return `funds arrived on ${funded.id} while the requote was in flight`;
    if (cancel) return 'a cancel came while the requote was in flight';
    return null;
  }

  /** A requote's answer, or why it is refused (its side effects — NEEDS_ATTENTION — happen here, once). */
  function requoteAnswerOf(result: CreateResult): { answer: PaymentCreated } | { refused: string } {
    if ('rejected' in result) return { answer: { outcome: 'REJECTED', violations: result.rejected } };
    if ('attention' in result) {
      attention = { reason: result.attention, idempotencyKey: result.idempotencyKey, first: false };
      raise('CREATE_OUTCOME_UNKNOWN', null, `${result.idempotencyKey}: ${result.attention}`);
      return { answer: { outcome: 'NEEDS_ATTENTION', reason: result.attention } };
    }
    if ('lost' in result)
      return {
        refused: result.payment
          ? `${result.lost}; the new provider payment ${result.payment.id} is never used: it is tracked (superseded) until it expires`
          : result.lost,
      };
    return { answer: result.created };
  }

  setHandler(
    requoteUpdate,
    shielded(async (): Promise<PaymentCreated> => {
      const updateId = currentUpdateInfo()?.id;
      await condition(() => !requoting);
      const known = updateId === undefined ? undefined : requoteNumbers.get(updateId);
      // The server dedupes an update ID it still remembers; one that reaches us again (e.g. after the server
      // forgot it) gets the first answer, never a second run of rate/create that skips every check.
      const firstAnswer = known !== undefined && updateId !== undefined ? requoteAnswers.get(updateId) : undefined;
      if (firstAnswer && isPatched(PAYMENT_PATCHES.requoteAnswersOnce)) {
        note('requote', `requote ${known} asked again with the same update ID: first answer given`);
        if ('refused' in firstAnswer) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, firstAnswer.refused);
        return firstAnswer.answer;
      }
      const rechecks = isPatched(PAYMENT_PATCHES.requoteRechecks);
      // Before the patch the body checked only the end, funds and a cancel (the rest was the validator's, which
      // does not run on replay): a requote recorded then, while the quote was valid, still replays.
      const legacyBlocker = () =>
        outcome || fundsIn() || cancel ? 'funds arrived or the payment ended' : null;
      const blocker = known !== undefined ? null : rechecks ? requoteBlocker() : legacyBlocker();
      if (blocker) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, blocker);
      requoting = true;
      try {
        // The same update ID maps to the same n, so to the same idempotency key `<workflowId>:create:<n>`.
        const n = known ?? ++requotes;
        if (updateId !== undefined) requoteNumbers.set(updateId, n);
        note('requote', `requote ${n} requested`);
        const result = await quoteAndCreate(n, rechecks ? requoteLostTo : null);
        const first = requoteAnswerOf(result);
        if (updateId !== undefined) requoteAnswers.set(updateId, first);
        if ('refused' in first) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, first.refused);
        return first.answer;
      } finally {
        requoting = false;
        version++;
      }
    }),
    {
      validator: () => {
        // a retried update ID is answered again (the server dedupes it too); anything else is checked
        const updateId = currentUpdateInfo()?.id;
        if (updateId !== undefined && requoteNumbers.has(updateId)) return;
        const blocker = requoteBlocker();
        if (blocker) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, blocker);
      },
    },
  );

  setHandler(
    resolveCreateUpdate,
    shielded(async (decision: ResolveCreateDecision): Promise<PaymentState> => {
      const pending = attention!;
      if (pending.first) {
        // the main body acts on it (it is waiting in NEEDS_ATTENTION)
        resolution = decision;
        version++;
        await condition(() => resolution === null);
        if (attention)
          throw refusal(
            PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
            `could not follow ${JSON.stringify(decision)}: see the timeline`,
          );
        return state();
      }
      if ('providerPaymentId' in decision) {
        // a requote's payment: tracked as superseded, so its funds (if any) are followed. `attention` stays set
        // until it is adopted: if the read fails the operator can try again, and no further requote can
        // create yet another provider payment meanwhile.
        resolvingRequote = true;
        try {
          await adopt(
            decision.providerPaymentId,
            'operator: made by a requote whose create outcome was unknown',
          );
        } finally {
          resolvingRequote = false;
        }
      } else note('resolved', `operator: ${pending.idempotencyKey} made no payment (${decision.reason})`);
      attention = null;
      version++;
      return state();
    }),
    {
      validator: (decision: ResolveCreateDecision) => {
        if (!attention)
          throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, 'no create is waiting for a decision');
        if (resolution || resolvingRequote)
          throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, 'a decision is already being applied');
        const ok =
          (typeof (decision as { providerPaymentId?: unknown })?.providerPaymentId === 'string' &&
            (decision as { providerPaymentId: string }).providerPaymentId.length > 0) ||
          ((decision as { noPaymentCreated?: unknown })?.noPaymentCreated === true &&
            typeof (decision as { reason?: unknown }).reason === 'string');
        if (!ok)
          throw refusal(
            PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
            'pass { providerPaymentId } or { noPaymentCreated: true, reason }',
          );
      },
    },
  );

  // ---- steps ----
  const request = input.request as CreatePaymentRequest;

  function rateQuery(): RateQuery {
    return {
      sourceCurrency: request.source.currencyCode,
      destinationCurrency: request.destination.currencyCode,
      sourceRail: request.source.rail,
      destinationRail: request.destination.rail,
      sourceAmount: request.source.amount,
    };
  }

  /**
   * A payment pulled from an account moves the funds at creation (spec: States and transitions, rule 1), so a
   * drift limit, which can only be judged on the created payment's quote, could not stop anything: refuse it up front.
   */
  /** What runs recorded before `acceptsDocumentReference` refused (the contract no longer does). */
  function documentReferenceRefusedBeforePatch(): Violation[] {
    const sent = (input.request as Record<string, unknown>).documentReference !== undefined;
    if (!sent || !isInForce('PAYLOAD_STEP_TWO', new Date()) || patched(PAYMENT_PATCHES.acceptsDocumentReference)) return [];
    return [{ path: 'documentReference', rule: 'PAYLOAD_STEP_TWO', message: 'remove documentReference: it is no longer used' }];
  }

  function pullLimitViolations(): Violation[] {
    if (input.limits?.maxRateDrift === undefined || !pullsFromAccount(request)) return [];
    return [
      {
        path: 'limits.maxRateDrift',
        rule: 'DRIFT_LIMIT_ON_PULL_PAYMENT',
        message:
          'maxRateDrift cannot be enforced for a payment with source.accountId: the funds are pulled when it is created. Omit maxRateDrift, or use maxTotalFee (checked before creation).',
      },
    ];
  }

  function createdAnswer(p: Payment): PaymentCreated & { outcome: 'CREATED' } {
    return {
      outcome: 'CREATED',
      providerPaymentId: p.id,
      quote: p.quote,
      fundingInstructions: p.fundingInstructions,
      fee: p.fee,
      // what a user must be shown before funding; an answer, not a command: replay is unaffected (no patch)
      feeCurrencyCode: p.source?.currencyCode ?? null,
      destinationAmount: p.destination?.amount ?? null,
      destinationCurrencyCode: p.destination?.currencyCode ?? null,
      fundingDeadline: fundingDeadline(p)?.toISOString() ?? null,
      pulledFromAccount: pullsFromAccount(p),
    };
  }

  /** Tracks a snapshot of one of our provider payments (a replayed create answers the same payment again). */
  function track(p: Payment, cause: string): void {
    if (tracked.has(p.id)) absorb(p, cause);
    else tracked.set(p.id, p);
    const early = toldEarly.get(p.id);
    if (early) {
      toldEarly.delete(p.id);
      absorb(early.payment, early.cause);
    }
  }

  /**
   * Rate → fee limit → POST /payments (key `<workflowId>:create:<n>`) → drift limit → follow.
   * `lostTo` (a requote): asked after every await; when it names a reason the new payment never goes live.
   * `beforeCreate` (the first create): asked once before POST /payments; a reason means nothing is created.
   */
  async function quoteAndCreate(
    n: number,
    lostTo: (() => string | null) | null = null,
    beforeCreate: (() => string | null) | null = null,
  ): Promise<CreateResult> {
    let rate;
    try {
      const rates = isPatched(PAYMENT_PATCHES.rateAsLocalActivity) ? localRateActivities : rateActivities;
      rate = await rates.getRate(rateQuery());
    } catch (err) {
      return { rejected: [failureViolation('rate', err, 'RATE_UNAVAILABLE')], payment: null };
    }
    const lostBeforeCreate = lostTo?.() ?? beforeCreate?.() ?? null;
    if (lostBeforeCreate) return { lost: lostBeforeCreate, payment: null };
    const fees = feeViolations(rate, input.limits);
    if (fees.length > 0) return { rejected: fees, payment: null };

    const idempotencyKey = `${workflowId}:create:${n}`;
    let p: Payment;
    /** lean runs follow the new payment in the create's own activity (createPaymentAndFollow) */
    let followed = false;
    try {
      if (leanHistory()) {
        const made = await createActivities.createPaymentAndFollow(request, idempotencyKey, {
          subscriber: workflowId,
          // the entity shares the payment's fairness key, as it did as a child (issue 14)
          ...(workflowInfo().priority ? { priority: { ...workflowInfo().priority } } : {}),
        });
        p = made.payment;
        followed = made.followed;
        if (!followed) note('follow-failed', `${p.id}: ${made.error ?? 'signalWithStart failed'}; following by a child start`);
      } else p = await createActivities.createPayment(request, idempotencyKey);
    } catch (err) {
      const app = applicationFailureOf(err);
      const maybeCreated = app?.type === PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN || !app?.nonRetryable;
      if (!maybeCreated) return { rejected: providerViolations(app!), payment: null };
      // A create that may have reached the service is never a refusal (issue 9, point 5).
      if (isPatched(PAYMENT_PATCHES.createOutcomeUnknownNeedsAttention)) {
        const why = app?.nonRetryable
          ? app.message
          : `no answer after retrying for 12 hours: ${err instanceof Error ? err.message : String(err)}`;
        return { attention: why, idempotencyKey };
      }
      if (app?.nonRetryable) return { rejected: providerViolations(app), payment: null };
      throw err; // the outcome stayed unknown for 12 hours: let an operator look
    }
    track(p, 'create');
    note('created', `provider payment ${p.id} (${p.status}), quote until ${p.quote?.expiresAt ?? '—'}`);
    const drift = driftViolations(rate, p, input.limits);
    // Never walk away from a payment whose funds are already moving (pull payments are refused above; defensive).
    if (drift.length > 0 && !pullsFromAccount(p)) {
      // The provider payment exists but is never funded by us: it expires on its own (no cancel endpoint).
      note('refused', `rate drift above the limit; provider payment ${p.id} is left to expire`);
      return { rejected: drift, payment: p };
    }
    if (lostTo) {
      // Follow it first: whatever happens next, funds sent to it reach this workflow.
      if (!followed) await follow(p);
      const lost = lostTo();
      if (lost) {
        note('superseded', `${p.id} never went live: ${lost}; it is tracked until it expires`);
        version++;
        return { lost, payment: p };
      }
      activeId = p.id;
      version++;
    } else {
      activeId = p.id;
      version++;
      if (isPatched(PAYMENT_PATCHES.createdBeforeFollow)) {
        // The answer is the POST's response: the caller gets it now, in this workflow task. Nothing is lost
        // meanwhile: a webhook that starts the entity first is read back when we subscribe (the entity sends
        // its snapshot to every new subscriber), and a cancel or requote arriving now is decided by the main
        // loop once the entity is followed, as before. The phase is the one the main loop would show.
        const answer = createdAnswer(p);
        created = answer;
        setPhase(phaseOf(p, isQuoteExpired(p)));
        if (!followed) await follow(p);
        return { created: answer };
      }
      await follow(p);
    }
    const answer = createdAnswer(p);
    created = answer;
    return { created: answer };
  }

  /** Reads a provider payment an operator named and follows it (NEEDS_ATTENTION resolved). */
  async function adopt(id: string, why: string): Promise<Payment> {
    let p: Payment;
    try {
      p = await readActivities.getPayment(id);
    } catch (err) {
      throw refusal(
        PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
        `could not read provider payment ${id}: ${String(err)}`,
      );
    }
    track(p, 'operator');
    note('adopted', `${id} (${why})`);
    await follow(p);
    return p;
  }

  /** Start the entity of the provider payment, or subscribe to it when a webhook started it first. */
  async function follow(p: Payment): Promise<void> {
    const entityInput: ProviderPaymentInput = {
      providerPaymentId: p.id,
      payment: p,
      subscribers: [workflowId],
    };
    const abandonOnCancel = isPatched(PAYMENT_PATCHES.entityIgnoresParentCancel);
    await startOrSubscribe(
      'providerPayment',
      providerPaymentWorkflowId(p.id),
      entityInput,
      `provider payment ${p.id} (for ${workflowId})`,
      {
        abandonOnCancel,
        // Lean runs start the entity with what it would upsert first: it then upserts nothing (issue 12).
        ...(leanHistory()
          ? {
              typedSearchAttributes: indexPairs({ status: p.status, providerPaymentId: p.id, customerId: p.customerId }),
              memo: { ...entityMemo(p, entityInput.subscribers!.length, unknownPaymentValues(p)) },
            }
          : {}),
      },
    );
  }

  async function reconcile(id: string, why: string): Promise<void> {
    try {
      const read = await readActivities.getPayment(id);
      const before = version;
      absorb(read, `reconcile: ${why}`);
      note('reconciled', `${id} (${why})`);
      // news the entity may have missed (its webhook dropped): it must not show an older state for an hour
      if (version !== before && isPatched(PAYMENT_PATCHES.tellsEntityWhatItRead)) {
        const failed = await tellEntity(read);
        if (failed) note('entity-not-told', `${id}: ${failed}`);
      }
    } catch (err) {
      note('reconcile-failed', `${id} (${why}): ${String(err)}`);
    } finally {
      lastHeardAt = Date.now();
    }
  }

  async function finish(ended: PaymentOutcome): Promise<PaymentOutcome> {
    // every alert travels with the outcome: a payment team reads it where it reads the result
    const result: PaymentOutcome = alerts.length > 0 ? { ...ended, alerts: [...alerts] } : ended;
    outcome = result;
    if (cancel?.decision === 'PENDING')
      cancel.decision = result.outcome === 'CANCELLED' ? 'ACCEPTED' : 'REFUSED';
    note('outcome', result.outcome);
    setPhase(result.outcome);
    await events.settled(); // every event handed over before the run ends
    await condition(allHandlersFinished);
    return result;
  }

  function cancelledOutcome(p: Payment | null): PaymentOutcome {
    return { outcome: 'CANCELLED', reason: cancel?.reason ?? 'cancelled', payment: p };
  }

  /** The latest funding deadline of the tracked payments the provider has not expired yet. */
  function latestOpenDeadline(): number | null {
    let latest: number | null = null;
    for (const t of tracked.values()) {
      if (t.status === 'EXPIRED') continue;
      const d = fundingDeadline(t)?.getTime() ?? null;
      if (d !== null && (latest === null || d > latest)) latest = d;
    }
    return latest;
  }

  /** Waits until something changes or `ms` pass. */
  async function wake(ms: number): Promise<void> {
    const v = version;
    await condition(() => version !== v, Math.max(1, ms));
  }

  /**
   * One turn of the wait after an accepted cancel, with no funds in: CANCELLED once the provider says that no
   * tracked payment can be funded any more (isUnfundable) and the linger has passed, else null. Never decided on our
   * clock: past our estimate of a payment's funding deadline (3 business days; the provider's calendar may differ)
   * the payment is read by GET, then again every reconcileEveryMs, until the provider says so — or funds come.
   */
  async function listenAfterCancel(p: Payment): Promise<PaymentOutcome | null> {
    setPhase('CANCELLING');
    const now = Date.now();
    const open = [...tracked.values()].filter((t) => !isUnfundable(t));
    if (open.length === 0) {
      // spec: States and transitions, rows 4–5 — a refund or a legacy late funding may still follow EXPIRED
      unfundableSince ??= now;
      if (now >= unfundableSince + expiredLingerMs) return cancelledOutcome(p);
      await wake(unfundableSince + expiredLingerMs - now);
      return null;
    }
    unfundableSince = null;
    const readAt = (t: Payment): number => {
      const last = cancelReads.get(t.id);
      return last !== undefined ? last + reconcileEveryMs : (fundingDeadline(t)?.getTime() ?? now);
    };
    const next = open.reduce((a, b) => (readAt(b) < readAt(a) ? b : a));
    if (now >= readAt(next)) {
      cancelReads.set(next.id, now);
      await reconcile(next.id, 'cancel accepted: can it still be funded?');
      return null;
    }
    if (now >= lastHeardAt + reconcileEveryMs) {
      await reconcile(p.id, 'nothing heard');
      return null;
    }
    await wake(Math.min(readAt(next), lastHeardAt + reconcileEveryMs) - now);
    return null;
  }

  // A Temporal cancel request is decided like the `cancel` update (see shieldFromTemporalCancel above).
  const shieldBody = shieldFromTemporalCancel();
  if (shieldBody) {
    CancellationScope.current().cancelRequested.catch(() => {
      if (outcome || cancel) return;
      const blocker = cancelBlocker();
      if (blocker) {
        note('cancel-ignored', `Temporal cancel request: ${blocker}`);
        log.info('Temporal cancel request ignored', { workflowId, why: blocker });
        return;
      }
      cancel = { reason: 'Temporal cancel request', decision: 'PENDING', via: 'TEMPORAL_CANCEL' };
      version++;
    });
  }
  return shieldBody ? CancellationScope.nonCancellable(run) : run();

  async function run(): Promise<PaymentOutcome> {
    // ---- 1. validate (contract rules at workflow time) ----
    // Lean runs do not index VALIDATING: the rules run within this workflow task, so nobody sees it.
    setPhase('VALIDATING', !leanHistory());
    const violations = [...validatePaymentRequest(input.request, new Date()), ...documentReferenceRefusedBeforePatch(), ...pullLimitViolations()];
    if (violations.length > 0) return finish({ outcome: 'REJECTED', violations, payment: null });

    // ---- 2–3. rate, limits, create ----
    setPhase('QUOTING');
    if (cancel) return finish({ outcome: 'CANCELLED', reason: cancel.reason, payment: null });
    // A cancel that came while getRate ran: nothing is created (no live instructions for a cancelled payment).
    // patched() is read only then: before the patch the create went ahead and the main loop cancelled after.
    const cancelledBeforeCreate = (): string | null =>
      pendingCancel() && isPatched(PAYMENT_PATCHES.firstCreateChecksCancel)
        ? 'a cancel came before the provider payment was created'
        : null;
    const first = await quoteAndCreate(0, null, cancelledBeforeCreate);
    if ('lost' in first) {
      note('cancelled', `${pendingCancel()?.reason ?? 'cancelled'}: ${first.lost}`);
      return finish(cancelledOutcome(null));
    }
    if ('rejected' in first)
      return finish({ outcome: 'REJECTED', violations: first.rejected, payment: first.payment });
    if ('attention' in first) {
      // spec: Authentication 3 (the effect of a repeated key is not shown) — an operator decides (docs/spec-gaps.md)
      attention = { reason: first.attention, idempotencyKey: first.idempotencyKey, first: true };
      raise('CREATE_OUTCOME_UNKNOWN', null, `${first.idempotencyKey}: ${first.attention}`);
      setPhase('NEEDS_ATTENTION');
      for (;;) {
        await condition(() => resolution !== null || pendingCancel()?.decision === 'PENDING');
        const asked = pendingCancel();
        if (resolution === null && asked && pullsFromAccount(request)) {
          // a pull payment the create may have made moved its funds when created (spec: rule 1): an operator
          // must say what happened first
          asked.decision = 'REFUSED';
          note('cancel-refused', 'the create of a payment pulled from an account may have moved funds');
          continue;
        }
        if (resolution === null && asked) {
          // Nobody was given funding instructions for a payment we never saw: a cancel can be honoured. An
          // unseen payment, if it exists, expires unfunded on its own (docs/spec-gaps.md, "Maybe created").
          asked.decision = 'ACCEPTED';
          note('cancelled', `${asked.reason} (via ${asked.via}) while the create needed an operator`);
          attention = null;
          return finish({ outcome: 'CANCELLED', reason: asked.reason, payment: null });
        }
        const decision = resolution!;
        if ('noPaymentCreated' in decision) {
          note('resolved', `operator: ${first.idempotencyKey} made no payment (${decision.reason})`);
          attention = null;
          resolution = null;
          return finish({
            outcome: 'REJECTED',
            violations: [
              {
                path: '',
                rule: PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN,
                message: `${first.attention}; operator: ${decision.reason}`,
              },
            ],
            payment: null,
          });
        }
        try {
          const p = await adopt(decision.providerPaymentId, 'operator: made by the first create');
          activeId = p.id;
          created = createdAnswer(p);
          attention = null;
          resolution = null;
          version++;
          break;
        } catch (err) {
          note('resolve-failed', String(err));
          resolution = null; // the operator may try again
          version++;
        }
      }
    }

    // ---- 4. follow to an outcome ----
    const quoteExpiryReconciled = new Set<string>();
    const deadlineReconciled = new Set<string>();
    for (;;) {
      const p = active()!;
      const asked = pendingCancel();
      if (asked?.decision === 'PENDING') {
        // Before the patch a pending cancel of an unfunded pull payment was accepted (CANCELLED at once).
        const blocker = fundsIn()
          ? 'funds are in'
          : pullsFromAccount(request) && isPatched(PAYMENT_PATCHES.pullPaymentCancelRefused)
            ? 'a payment pulled from an account moves its funds when created'
            : null;
        if (blocker) {
          asked.decision = 'REFUSED';
          note('cancel-refused', blocker);
        } else {
          // spec: no cancel endpoint — the provider payment expires on its own (docs/spec-gaps.md)
          asked.decision = 'ACCEPTED';
          note('cancelled', `${asked.reason} (via ${asked.via})`);
          if (!isPatched(PAYMENT_PATCHES.cancelListensUntilUnfundable)) return finish(cancelledOutcome(p));
          // Cancel does not lie: a late notice can still fund it (spec: States and transitions, row 2), so it is
          // followed until it can no longer be funded; funds after all → the real outcome, FUNDED_AFTER_CANCEL.
          cancelWaitsForProvider = patched(PAYMENT_PATCHES.cancelEndsOnProviderWord);
          setPhase(cancelWaitsForProvider ? 'CANCELLING' : 'CANCELLED');
        }
      }
      const listeningAfterCancel =
        pendingCancel()?.decision === 'ACCEPTED' &&
        (cancelWaitsForProvider ? ![...tracked.values()].some((t) => isFunded(t) && !isUnfundable(t)) : !fundsIn());
      const ended = outcomeOf(p);
      const now = Date.now();
      if (ended && ended.outcome !== 'EXPIRED') {
        // Two payments of one request carry money (DOUBLE_FUNDED): the end waits until neither still moves.
        // Only funds known to be in count (an unknown status without sentAt never keeps the workflow open).
        const stillMoving = [...tracked.values()].find((t) => t.id !== p.id && hasFundsIn(t) && !outcomeOf(t));
        if (!stillMoving || !isPatched(PAYMENT_PATCHES.followEveryFundedPayment)) return finish(ended);
        stillMovingSince ??= now;
        if (now >= stillMovingSince + STILL_MOVING_LIMIT_MS) {
          // Bounded: past the limit an operator looks; the workflow reads the other payment once a day (its history
          // stays small) and ends as soon as a notice or a read shows the other payment's end.
          raise(
            'STILL_MOVING',
            stillMoving.id,
            `${stillMoving.id} (${stillMoving.status}) has not ended ${STILL_MOVING_LIMIT_MS / DAY} days after ${p.id} did`,
          );
          setPhase('NEEDS_ATTENTION');
          if ((stillMovingRechecked ??= patched(PAYMENT_PATCHES.stillMovingRechecked))) {
            const recheckAt = lastHeardAt + STILL_MOVING_RECHECK_MS;
            if (now >= recheckAt) await reconcile(stillMoving.id, 'needs attention: is it still moving?');
            else await wake(recheckAt - now);
            continue;
          }
          const v = version;
          await condition(() => version !== v);
          continue;
        }
        setPhase('IN_PROGRESS');
        const wakeAt = lastHeardAt + reconcileEveryMs;
        if (now >= wakeAt) {
          await reconcile(stillMoving.id, 'the other funded payment is still moving');
          continue;
        }
        const v = version;
        await condition(() => version !== v, Math.max(1, wakeAt - now));
        continue;
      }
      if (listeningAfterCancel && cancelWaitsForProvider) {
        const ended = await listenAfterCancel(p);
        if (ended) return finish(ended);
        continue;
      }
      setPhase(listeningAfterCancel ? 'CANCELLED' : phaseOf(p, isQuoteExpired(p)));

      let wakeAt = lastHeardAt + reconcileEveryMs;
      if (ended?.outcome === 'EXPIRED') {
        // spec: States and transitions, rows 4–5 — a refund or a legacy late funding may still follow
        expiredSince ??= now;
        if (now >= expiredSince + expiredLingerMs)
          return finish(listeningAfterCancel ? cancelledOutcome(p) : ended);
        wakeAt = expiredSince + expiredLingerMs;
      } else if (listeningAfterCancel) {
        // the provider's EXPIRED may never reach us: past every funding deadline + the linger, nothing can fund it
        const deadline = latestOpenDeadline();
        if (deadline !== null) {
          if (now >= deadline + expiredLingerMs) return finish(cancelledOutcome(p));
          wakeAt = Math.min(wakeAt, deadline + expiredLingerMs);
        }
      } else if (phase === 'AWAITING_FUNDS' && !pullsFromAccount(p)) {
        // spec: States and transitions, row 2 — wait for funding until quote.expiresAt
        wakeAt = Math.min(wakeAt, quoteExpiresAtMs(p) ?? wakeAt);
      } else if (phase === 'QUOTE_EXPIRED') {
        // row 3: the status does not change at quote expiry; read once, then keep waiting for a late notice,
        // the provider's EXPIRED (3 business days) or a refund
        if (!quoteExpiryReconciled.has(p.id)) {
          quoteExpiryReconciled.add(p.id);
          await reconcile(p.id, 'quote expired');
          continue;
        }
        const deadline = fundingDeadline(p)?.getTime() ?? null;
        if (deadline !== null && now >= deadline && !deadlineReconciled.has(p.id)) {
          deadlineReconciled.add(p.id);
          await reconcile(p.id, 'funding deadline passed');
          continue;
        }
        if (deadline !== null && deadline > now) wakeAt = Math.min(wakeAt, deadline);
      }
      if (now >= wakeAt && ended?.outcome !== 'EXPIRED') {
        await reconcile(p.id, 'nothing heard');
        continue;
      }
      const v = version;
      await condition(() => version !== v, Math.max(1, wakeAt - now));
    }
  }
}
