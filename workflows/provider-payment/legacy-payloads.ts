// How the entity reads a payment payload it was sent. The edge parses every payload before it reaches the entity
// (the ingress with the contract's zod schemas, the activities' provider client), so for new runs this is the
// identity on a parsed `Payment`. It stays in the workflow for determinism: histories recorded before the edge
// parsed carry the webhook's body as it came, and whether that body was kept or dropped decided the entity's
// commands (memo, search attributes, signals to subscribers). Replaying them needs the same answer, so the
// check here is the one they ran with (zod-free: docs/performance.md). It can go once no history with raw
// payloads is kept in test/replay/histories (docs/deployment.md, "Replay histories per build").
import { log } from '@temporalio/workflow';
import type { Payment } from '../../src/contract';
import { normalizePayment } from '../../src/contract/payment-legacy-map';
import { ISO_DATETIME_UTC } from '../../src/contract/iso-formats';
import { unknownPaymentValues } from '../../src/contract/payment-status';

/** The timestamp rule of the first contract (before unknown values were passed through): ISO 8601 in UTC, no offset (z.iso.datetime({ offset: false })). */
const isOldTimestamp = (value: unknown): boolean => typeof value === 'string' && ISO_DATETIME_UTC.test(value);
const OLD_LIFECYCLE_KEYS = ['createdAt', 'sentAt', 'completedAt', 'expiredAt', 'refundedAt'] as const;

/**
 * Would the first contract (before unknown values were passed through) have refused this payment? Unknown values; a lifecycle key missing or not
 * null/a UTC timestamp (it required all five); quote.expiresAt missing or not a UTC timestamp.
 */
export function refusedByOldContract(p: Payment): boolean {
  if (unknownPaymentValues(p).length > 0) return true;
  const lifecycle = (p.lifecycle ?? {}) as Record<string, unknown>;
  if (!p.lifecycle) return true;
  const badLifecycle = OLD_LIFECYCLE_KEYS.some((k) => lifecycle[k] !== null && !isOldTimestamp(lifecycle[k]));
  return badLifecycle || !isOldTimestamp(p.quote?.expiresAt);
}

/**
 * The payload as a current-shape Payment, or null (logged) when it is not understood. `acceptsUnknownValues` is
 * asked only for a payload the old contract refused (its patched() call is where the old code made it).
 */
export function readPayload(raw: unknown, providerPaymentId: string, acceptsUnknownValues: () => boolean): Payment | null {
  try {
    const p = normalizePayment(raw);
    // The first contract refused these: histories recorded then replay the drop.
    if (refusedByOldContract(p) && !acceptsUnknownValues()) {
      log.warn('payment payload not understood; dropped', { providerPaymentId });
      return null;
    }
    return p;
  } catch (err) {
    log.warn('payment payload not understood; dropped', { providerPaymentId, error: String(err) });
    return null;
  }
}
