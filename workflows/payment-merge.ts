// How the providerPayment entity folds a new snapshot (webhook or GET) into what it knows, so that a
// duplicate, late or out-of-order snapshot never moves a payment backwards (ARCHITECTURE: "a webhook is
// a hint as much as a fact"; spec: Events 5 — delivery and order are "not shown").
//
// Lifecycle timestamps only ever get set, so a newer snapshot has a superset of them. When both have the
// same timestamps, the status order decides (PENDING and PROCESSING carry no timestamp of their own).
import type { Payment, PaymentStatus } from '../src/contract';
import { statusRank } from '../src/contract/enums';
import { isKnownPaymentStatus } from '../src/contract/payment-status';

const LIFECYCLE_KEYS = ['createdAt', 'sentAt', 'completedAt', 'expiredAt', 'refundedAt'] as const;
type LifecycleKey = (typeof LIFECYCLE_KEYS)[number];

/** The lifecycle timestamps a snapshot has set. */
export function stampsOf(p: Payment): Set<LifecycleKey> {
  const lifecycle = (p.lifecycle ?? {}) as Partial<Record<LifecycleKey, string | null>>;
  return new Set(LIFECYCLE_KEYS.filter((k) => Boolean(lifecycle[k])));
}

/** -1 for a status the contract does not know. */
function rankOf(status: string): number {
  if (!isKnownPaymentStatus(status)) return -1;
  const r = statusRank(status as PaymentStatus);
  return typeof r === 'number' && Number.isFinite(r) ? r : -1;
}

export type Freshness = 'NEWER' | 'SAME' | 'STALE';

/** Is `incoming` newer than `current`? */
export function compareSnapshots(current: Payment, incoming: Payment): Freshness {
  const cur = stampsOf(current);
  const inc = stampsOf(incoming);
  const incHasNew = [...inc].some((k) => !cur.has(k));
  const incLacksOld = [...cur].some((k) => !inc.has(k));
  if (incHasNew && !incLacksOld) return 'NEWER';
  if (incLacksOld && !incHasNew) return 'STALE';
  // same timestamps (or an inconsistent pair): the status order decides. An unknown status has no place in
  // that order: a change to or from one is taken as news (never dropped, which would freeze the payment);
  // the timestamps above still refuse a snapshot that lost one.
  if (rankOf(incoming.status) < 0 || rankOf(current.status) < 0) {
    if (sameContent(current, incoming)) return 'SAME';
    // A final status the contract names is never left for an unknown one that brings no new timestamp: that is a
    // stale read landing late (an ON_HOLD read before the FAILED), not news. A move after a final status carries a
    // timestamp (refundedAt: spec, States and transitions, row 4).
    if (rankOf(current.status) >= 0 && isTerminalStatus(current) && !incHasNew) return 'STALE';
    return 'NEWER';
  }
  const d = rankOf(incoming.status) - rankOf(current.status);
  if (d > 0) return 'NEWER';
  if (d < 0) return 'STALE';
  return sameContent(current, incoming) ? 'SAME' : 'NEWER';
}

function sameContent(a: Payment, b: Payment): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface MergeResult {
  payment: Payment;
  changed: boolean;
  statusChanged: boolean;
}

/** Folds `incoming` into `current`; a timestamp once seen is never lost. */
export function mergePayment(current: Payment | null, incoming: Payment): MergeResult {
  if (!current) return { payment: incoming, changed: true, statusChanged: true };
  const freshness = compareSnapshots(current, incoming);
  if (freshness !== 'NEWER') return { payment: current, changed: false, statusChanged: false };
  const lifecycle = { ...current.lifecycle } as Record<string, string | null>;
  for (const [k, v] of Object.entries(incoming.lifecycle ?? {})) if (v) lifecycle[k] = v as string;
  const payment = { ...incoming, lifecycle } as Payment;
  return { payment, changed: true, statusChanged: payment.status !== current.status };
}

/** Statuses after which only a refund or a legacy late funding (spec: States and transitions, rows 4–5) follow. */
export function isTerminalStatus(payment: Payment): boolean {
  return ['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED'].includes(payment.status);
}

/** A bounded, insertion-ordered set of event ids (dedupe across duplicates and continue-as-new). */
export class BoundedIdSet {
  private readonly ids: string[];
  private readonly index: Set<string>;
  constructor(
    initial: readonly string[] = [],
    private readonly max = 500,
  ) {
    this.ids = initial.slice(-max);
    this.index = new Set(this.ids);
  }
  /** true when the id is new (and is now remembered) */
  add(id: string): boolean {
    if (this.index.has(id)) return false;
    this.ids.push(id);
    this.index.add(id);
    while (this.ids.length > this.max) this.index.delete(this.ids.shift()!);
    return true;
  }
  toArray(): string[] {
    return [...this.ids];
  }
  get size(): number {
    return this.ids.length;
  }
}
