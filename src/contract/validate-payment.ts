import { RAILS, DEPRECATED_RAILS, OTHER_REASON, PAYMENT_REASONS, isPaymentReason, isRail } from './enums';
import type { Violation } from './errors';
import { isRecord } from './json';
import { UNDATED_RULES, Violations, isPresent, notAnObject, str } from './validation';

/** The schema check of the body: zod's `safeParse` of CreatePaymentRequestSchema (validate-payment-request.ts). */
export type SchemaCheck = (body: Record<string, unknown>) => Parameters<Violations['schema']>[0];

/**
 * Every violation of a POST /payments body at asOf (spec: POST /payments body; Rail values; Payment
 * reason values). [] = valid. Before 2026-07-31 unknown rails and reasons are accepted (except the
 * dated refusals of CRYPTO and OTHER); WIRE is accepted until then (deprecated, the service maps it to
 * SWIFT) and refused from 2026-07-31 with the enumerated list.
 */
export function paymentRequestViolations(body: unknown, asOf: Date, schemaCheck: SchemaCheck): Violation[] {
  if (!isRecord(body)) return notAnObject('payment request');
  const v = new Violations(asOf);
  // the schema first: zod's CreatePaymentRequestSchema at the edges (validate-payment-request.ts)
  v.schema(schemaCheck(body));

  for (const side of ['source', 'destination'] as const) {
    const obj = isRecord(body[side]) ? body[side] : {};
    const rail = str(obj.rail);
    if (obj.chain !== undefined) {
      v.dated(
        'CHAIN_FIELD_REMOVED',
        `${side}.chain`,
        `remove ${side}.chain and put the blockchain name in ${side}.rail`,
      );
    }
    if (rail === undefined) continue;
    if (rail === 'CRYPTO') {
      // spec: Rail values — CRYPTO removed from use as of 2026-03-04; before it the chain replaces it.
      if (v.inForce('CRYPTO_RAIL_REMOVED')) {
        v.add(
          `${side}.rail`,
          'CRYPTO_RAIL_REMOVED',
          `CRYPTO is no longer a rail: put the blockchain name (e.g. POLYGON) in ${side}.rail`,
        );
      } else if (side === 'source' && !isPresent(obj.chain)) {
        // source.chain is a field the spec shows ("the chain value replaces it"), and funding instructions need
        // one chain. destination.chain is not among the spec's request fields, so it is never required: the
        // service pays on the destination account's own chain (the sandbox: its first blockchain rail).
        v.add(
          `${side}.chain`,
          UNDATED_RULES.CRYPTO_NEEDS_CHAIN,
          `with rail CRYPTO add ${side}.chain (the blockchain name)`,
        );
      }
    } else if (!isRail(rail)) {
      // spec: POST /payments body / Errors 2 — outside the enumerated list: HTTP 400 from 2026-07-31.
      const hint =
        rail in DEPRECATED_RAILS
          ? ` (${rail} is deprecated: use ${DEPRECATED_RAILS[rail as keyof typeof DEPRECATED_RAILS]})`
          : '';
      v.dated(
        'RAILS_ENUM_ENFORCED',
        `${side}.rail`,
        `${rail} is not an accepted rail${hint}: use one of ${RAILS.join(', ')}`,
      );
    }
  }

  if (body.memo !== undefined) v.dated('MEMO_REMOVED', 'memo', 'rename memo to reference');
  // spec: POST /payments body — documentReference is a legacy request field "no longer to be used", with no
  // date for requests (its 2026-03-30 removal is from responses): accepted and ignored at every date.

  const reason = str(body.paymentReason);
  if (reason === OTHER_REASON && v.inForce('REASON_OTHER_REFUSED')) {
    v.add(
      'paymentReason',
      'REASON_OTHER_REFUSED',
      `OTHER is no longer accepted: pick the reason that fits (${PAYMENT_REASONS.join(', ')})`,
    );
  } else if (reason !== undefined && !isPaymentReason(reason)) {
    v.dated(
      'PAYMENT_REASONS_ENUM',
      'paymentReason',
      `${reason} is not an accepted payment reason: use one of ${PAYMENT_REASONS.join(', ')}`,
    );
  }
  return v.list;
}
