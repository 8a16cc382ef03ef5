// What the providerPayment entity may know, as pure decisions (ARCHITECTURE: "a webhook is a hint as much as a
// fact"). One rule, written once: nothing a push says — status, lifecycle timestamp, amount, error code — changes
// what the entity knows, forwards to its subscribers or announces to a backend until a read the worker made (a GET,
// or a list answered to our own call) bears it out. A push is a trigger to read. Where the read disagrees with the
// push, the read wins and the push is kept as a mismatch (push-confirmation.ts).
//
// Zod-free and free of workflow APIs: the entity's state (state.ts) calls these, and the simulation
// (test/unit/simulation) drives them with generated histories of the service and of its deliveries.
import type { Payment } from '../../src/contract';
import { compareSnapshots, mergePayment, stampsOf } from '../payment-merge';

/** Where a snapshot came from: a push (a webhook: anyone holding the webhook secret can sign one) or our own read. */
export type SnapshotSource = 'push' | 'read';

/** Who an `event` signal says read the payment: one of the entity's known readers, another name, or none (a push). */
export type Reader = 'known' | 'stranger' | 'none';

/**
 * An `event` signal carries a read when a worker's own code read the payment and says who it is (`from`): the
 * payment workflow's GET (tell-entity.ts, tellEntity: `from` is its workflow ID) and the reconcile sweep's listing
 * (RECONCILE_SWEEP_READER). The ingress never sets `from` (src/ingress/routing.ts), and a signal cannot be forged
 * without Temporal access and the codec keys (plaintext is refused); as defence in depth, only a reader the entity
 * knows — the sweep, a payment that subscribes or subscribed to it (state.ts) — is taken at its word.
 */
export function readerOf(event: { from?: string }, isKnownReader: (from: string) => boolean): Reader {
  if (typeof event.from !== 'string' || event.from.length === 0) return 'none';
  return isKnownReader(event.from) ? 'known' : 'stranger';
}

/** A read only from a known reader; an event with no `from`, or another, is a push (held for a read). */
export function sourceOf(event: { from?: string }, isKnownReader: (from: string) => boolean): SnapshotSource {
  return readerOf(event, isKnownReader) === 'known' ? 'read' : 'push';
}

/**
 * A push is held for a read when it would change what the entity holds (or the entity holds nothing yet). A push
 * that changes nothing — a duplicate under a new id, a stale copy — is dropped and costs no read.
 */
export function mustHoldForRead(current: Payment | null, pushed: Payment): boolean {
  return current === null || mergePayment(current, pushed).changed;
}

/** The figures a push could invent that the status and timestamps do not show (spec: Payment). */
function moneyOf(p: Payment): string {
  const error: unknown = (p as { error?: unknown }).error;
  const code = typeof error === 'string' ? error : ((error as { code?: unknown } | null)?.code ?? null);
  return JSON.stringify([
    p.source?.amount ?? null,
    p.source?.currencyCode ?? null,
    p.destination?.amount ?? null,
    p.destination?.currencyCode ?? null,
    p.fee ?? null,
    code,
  ]);
}

/**
 * Does the service's answer bear the push out? The read must have every lifecycle timestamp the push claimed, and
 * either the same status with the same figures, or have moved on past it (newer by timestamps or status order: the
 * push was only late — a PENDING read back as SENT, a COMPLETED read back as refunded: spec, States and transitions,
 * row 4). A push claiming a timestamp the service does not have (PROCESSING with refundedAt, AWAITING_FUNDS with
 * refundedAt), another status the read is not past, or other figures is a mismatch.
 */
export function bearsOut(read: Payment, pushed: Payment): boolean {
  const claimed = stampsOf(pushed);
  const has = stampsOf(read);
  if (![...claimed].every((k) => has.has(k))) return false;
  if (read.status === pushed.status && has.size === claimed.size) return moneyOf(read) === moneyOf(pushed);
  return compareSnapshots(pushed, read) === 'NEWER';
}

/**
 * What a backend was told of a payment's money, as one key: its status, and a refund where the status does not say
 * it (EXPIRED with late funds refunded keeps the status EXPIRED and adds refundedAt: spec, States and transitions,
 * row 4). A move after the outcome is announced when this key changes, so a refund that keeps the status is heard.
 */
export function moveKey(p: Payment): string {
  return p.status !== 'REFUNDED' && p.lifecycle?.refundedAt ? `${p.status}+REFUNDED` : p.status;
}

/**
 * Is `p` a move the backend has not been told, given the key it was last told (null: nothing)? A key that only
 * differs by the refund suffix on the same status is a move too (the refund).
 */
export function isUntoldMove(told: string | null, p: Payment): boolean {
  return told !== moveKey(p);
}

/** A move whose status equals the told one but whose refund the old rule did not see (needs its own patch). */
export function isRefundKeepingStatus(told: string | null, p: Payment): boolean {
  return told === p.status && moveKey(p) !== p.status;
}

/** What an entity holds of a subscriber it announces moves to (state.ts, eventsFor). */
export interface ToldEntry {
  /** the key its backend was last told (moveKey), or, written by a build before the refund rule, the status alone */
  told: string | null;
  /** `told` was written by this rule (moveKey): absent in what a build before ENTITY_PATCHES.announcesRefundKeepingStatus carried over */
  keyed?: boolean;
  /** carried over without `keyed` while still subscribed: the key of the snapshot the older run sent it last */
  sentKey?: string;
}

/**
 * Before the refund rule a `told` was the status alone, so a carried-over "EXPIRED" may stand for an EXPIRED snapshot
 * with refundedAt that the subscriber was sent (and so told its backend in its outcome): such an entry is ambiguous.
 */
export function mayBeOlderTold(entry: ToldEntry, p: Payment): boolean {
  return !entry.keyed && isRefundKeepingStatus(entry.told, p);
}

/**
 * An ambiguous older `told` (mayBeOlderTold) whose subscriber the older run still had when it carried over: that run
 * had sent it its payment (workflow.ts, forwardUntilSettled), so a refund keeping the status that is in that payment
 * is no move after the outcome. Where the subscriber had closed before, the closed payment's registration (its
 * outcome: activities/late-events-activities.ts) says what it told (steps/announce-late.ts); when that cannot be read
 * the refund is announced (a refund the backend never hears loses money; one heard twice is the lesser harm).
 */
export function sentBeforeUpgrade(entry: ToldEntry, p: Payment): boolean {
  return mayBeOlderTold(entry, p) && entry.sentKey === moveKey(p);
}

/**
 * A payment a fresh entity run reads may have moved after its payment's outcome: it carries a refund (a return, late
 * funds refunded: spec, States and transitions, row 4) or a legacy late funding that revived an EXPIRED payment
 * (row 5). Only then does the run look for the closed payment's events registration (it costs one local activity).
 */
export function mayHaveMovedAfterOutcome(p: Payment): boolean {
  if (p.lifecycle?.refundedAt || p.status === 'REFUNDED') return true;
  return Boolean(p.lifecycle?.expiredAt) && ['SENT', 'COMPLETED'].includes(p.status);
}

/**
 * Registration lookups a fresh run may make that go unanswered (Temporal not answering), carried over continue-as-new.
 * A "not yet" (the payment still running) takes none (steps/announce-late.ts, waitsForRunningPayment).
 */
export const MAX_REGISTRATION_LOOKUPS = 4;

/**
 * Does a registration lookup's result stand for the run (steps/announce-late.ts)? An answer does — found, or definitively
 * none. No answer is asked again later, until the run has made MAX_REGISTRATION_LOOKUPS: then the run gives up (logged).
 */
export function lookupStands(answered: boolean, lookupsMade: number): boolean {
  return answered || lookupsMade >= MAX_REGISTRATION_LOOKUPS;
}
