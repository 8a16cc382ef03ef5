import { FIAT_RAILS, FPS_RAIL } from './enums';
import { cloneJson, isRecord } from './json';
import type { Payment } from './payment';
import { ContractParseError, issuesToViolations, type SchemaIssue } from './violations';

// Zod-free field moves; the check after them is zod (normalize-payment.ts), at the edges that read a payment.

// spec: Payment fields present only until March 30, 2026 (transitional). One row per old field;
// this table drives both normalizePayment (old → current) and toTransitionalPayment (current → old).

export interface PaymentFieldMove {
  /** Dotted path of the old field. */
  old: string;
  /** Dotted path of its replacement; null = "none" in the spec table (dropped). */
  current: string | null;
  /** 'chain': chain → rail with the CRYPTO rule; 'getOnly': present only on GET responses. */
  kind?: 'chain' | 'getOnly';
}

export const PAYMENT_FIELD_MAP: readonly PaymentFieldMove[] = [
  { old: 'createdAt', current: 'lifecycle.createdAt' },
  { old: 'sentAt', current: 'lifecycle.sentAt' },
  { old: 'completedAt', current: 'lifecycle.completedAt' },
  { old: 'updatedAt', current: null },
  { old: 'entityId', current: 'customerId' },
  { old: 'paymentType', current: 'type' },
  { old: 'memo', current: 'reference' },
  { old: 'documentReference', current: null },
  { old: 'reason', current: 'paymentReason' },
  { old: 'exchangeRate', current: 'quote.exchangeRate' },
  { old: 'traceNumber', current: 'tracking.traceNumber' },
  { old: 'omad', current: 'tracking.omad' },
  { old: 'imad', current: 'tracking.imad' },
  { old: 'uetr', current: 'tracking.uetr' },
  { old: 'estimatedTotalFeeInSourceCurrency', current: 'fee' },
  { old: 'source.estimatedSourceAmount', current: 'source.amount' },
  { old: 'destination.estimatedAmount', current: 'destination.amount' },
  { old: 'source.chain', current: 'source.rail', kind: 'chain' },
  { old: 'destination.chain', current: 'destination.rail', kind: 'chain' },
  { old: 'fundingInstructions.chain', current: 'fundingInstructions.rail', kind: 'chain' },
  { old: 'source.accountNumber', current: 'source.fromAccountNumber' },
  { old: 'destination.account', current: null, kind: 'getOnly' },
  { old: 'customer', current: null, kind: 'getOnly' },
  { old: 'sendingCustomer', current: null, kind: 'getOnly' },
];

/** Current fields the old shape did not have, with the value a legacy payload gets. */
const LEGACY_DEFAULTS: ReadonlyArray<readonly [string, unknown]> = [
  ['lifecycle.createdAt', null],
  ['lifecycle.sentAt', null],
  ['lifecycle.completedAt', null],
  ['lifecycle.expiredAt', null],
  ['lifecycle.refundedAt', null],
  ['statusReasons', null],
  ['error', null],
  ['comment', null],
  ['reference', null],
  ['returnAddress', null],
  ['developerFee.fixed', null],
  ['developerFee.variable', null],
  ['developerFee.total', null],
  ['tracking.traceNumber', null],
  ['tracking.omad', null],
  ['tracking.imad', null],
  ['tracking.certificate', null],
  ['tracking.uetr', null],
  ['files', []],
  ['configurations.expiredQuoteBehavior', 'REFUND_PAYMENT'],
  ['source.accountId', null],
  ['source.fromAddress', null],
  ['source.transactionHash', null],
  ['source.fromAccountNumber', null],
  ['destination.transactionHash', null],
];

function getPath(obj: Record<string, unknown>, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (!isRecord(cur[key])) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]] = value;
}

function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parent = keys.length === 1 ? obj : getPath(obj, keys.slice(0, -1).join('.'));
  if (isRecord(parent)) delete parent[keys[keys.length - 1]];
}

const FIAT_LIKE_RAILS: readonly string[] = [...FIAT_RAILS, 'WIRE', FPS_RAIL];

/** The blockchain carried by a rail, for the old `chain` field; null for bank rails. */
export function chainOfRail(rail: unknown): string | null {
  return typeof rail === 'string' && rail !== 'CRYPTO' && !FIAT_LIKE_RAILS.includes(rail) ? rail : null;
}

/**
 * Any payment payload (current, transitional or legacy) → the current field names, not yet checked:
 * - A current field wins over its old counterpart when both are present (transitional payloads).
 * - `chain` becomes `rail` when the rail is missing or is the deprecated CRYPTO (spec: POST /payments,
 *   "the chain value replaces it and is stored as the rail").
 * - Old fields are removed; unknown extra fields are kept (forward compatibility).
 * - Legacy payloads get nulls for current fields that did not exist; a missing quote.expiresAt becomes
 *   lifecycle.createdAt (the quote is treated as already expired: never honour an unknown quote), and a
 *   missing fundingInstructions is built from source (docs/spec-gaps.md, Contract).
 * Throws ContractParseError when the payload is no JSON object.
 */
export function toCurrentPaymentFields(raw: unknown): Record<string, unknown> {
  if (!isRecord(raw)) {
    throw new ContractParseError('payment', [
      { path: '', rule: 'SCHEMA', message: 'a payment must be a JSON object' },
    ]);
  }
  const out = cloneJson(raw);
  for (const move of PAYMENT_FIELD_MAP) {
    const oldValue = getPath(out, move.old);
    if (move.current !== null && oldValue !== undefined) {
      const currentValue = getPath(out, move.current);
      if (move.kind === 'chain') {
        if (
          typeof oldValue === 'string' &&
          oldValue !== '' &&
          (currentValue === undefined || currentValue === 'CRYPTO')
        ) {
          setPath(out, move.current, oldValue);
        }
      } else if (currentValue === undefined) {
        setPath(out, move.current, oldValue);
      }
    }
    deletePath(out, move.old);
  }
  for (const [path, value] of LEGACY_DEFAULTS) {
    if (getPath(out, path) === undefined) setPath(out, path, cloneJson(value));
  }
  if (getPath(out, 'quote.expiresAt') === undefined)
    setPath(out, 'quote.expiresAt', getPath(out, 'lifecycle.createdAt'));
  if (out.fundingInstructions === undefined && isRecord(out.source)) {
    out.fundingInstructions = {
      rail: out.source.rail,
      amount: out.source.amount,
      toAddress: null,
      fromAddress: out.source.fromAddress ?? null,
      currencyCode: out.source.currencyCode,
    };
  }
  return out;
}

/** The schema's issues as a ContractParseError naming each path (with the old name when there is one). */
export function paymentParseError(issues: readonly SchemaIssue[]): ContractParseError {
  const violations = issuesToViolations(issues).map((v) => {
    const move = PAYMENT_FIELD_MAP.find((m) => m.current === v.path && m.kind !== 'chain');
    return move ? { ...v, message: `${v.message} (old name: ${move.old})` } : v;
  });
  return new ContractParseError('payment', violations);
}

/**
 * Current payment → current + old fields: what the service returned before 2026-03-30.
 * `updatedAt` = the latest lifecycle timestamp; `documentReference` = null; the GET-only old objects
 * (destination.account, customer, sendingCustomer) are not produced: a caller that has them adds them.
 */
export function toTransitionalPayment(p: Payment): Record<string, unknown> {
  const out: Record<string, unknown> = cloneJson(p);
  for (const move of PAYMENT_FIELD_MAP) {
    if (move.kind === 'getOnly') continue;
    if (move.current === null) continue;
    const value = getPath(out, move.current);
    setPath(out, move.old, move.kind === 'chain' ? chainOfRail(value) : (value ?? null));
  }
  const stamps = Object.values(p.lifecycle)
    .filter((t): t is string => typeof t === 'string')
    .sort();
  out.updatedAt = stamps.length > 0 ? stamps[stamps.length - 1] : null;
  out.documentReference = null;
  return out;
}
