// An operator's decision on a create whose outcome is unknown (phase NEEDS_ATTENTION; spec: Authentication 3, the
// effect of a repeated key is not shown) is checked against what the payment knows, as pure decisions: what the
// service told it (its entity tells a subscriber of a payment the create made, even when the create's answer was
// lost) and the provider payment the operator names (it must be this request's). A decision that contradicts
// them is refused with the evidence, never applied.
import type { CreatePaymentRequest, Payment } from '../../src/contract';
import type { ResolveCreateDecision } from './api';

function describe(p: Payment): string {
  return `${p.id} (${p.status})`;
}

/**
 * Why the decision contradicts what the service already told this payment, or null. `heard`: the provider payments
 * the entity told the payment of before any create of it was recorded — a create that reached the service.
 */
export function resolveContradiction(
  decision: ResolveCreateDecision,
  heard: readonly Payment[],
): string | null {
  if (heard.length === 0) return null;
  const named = heard.map(describe).join(', ');
  if ('noPaymentCreated' in decision)
    return `the service told this payment of provider payment ${named}, made by its create: a payment was created; resolve with { providerPaymentId: '${heard[0].id}' }`;
  if (!heard.some((p) => p.id === decision.providerPaymentId))
    return `the service told this payment of provider payment ${named}, not ${decision.providerPaymentId}: resolve with the payment its create made`;
  return null;
}

/**
 * The fields where a provider payment an operator names is not this request's (spec: Payment; POST /payments body):
 * customer, amounts' currencies, the source amount, the accounts and the caller's reference. Empty when it fits.
 * Fields the request leaves out (customerId, reference, source.accountId) are not compared.
 */
export function adoptionMismatches(request: CreatePaymentRequest, p: Payment): string[] {
  const differs: string[] = [];
  const check = (field: string, wanted: unknown, found: unknown): void => {
    if (wanted !== undefined && wanted !== null && wanted !== found)
      differs.push(
        `${field}: the request has ${JSON.stringify(wanted)}, ${p.id} has ${JSON.stringify(found ?? null)}`,
      );
  };
  check('customerId', request.customerId, p.customerId);
  check('source.currencyCode', request.source.currencyCode, p.source?.currencyCode);
  check('source.amount', request.source.amount, p.source?.amount);
  check('source.accountId', request.source.accountId, p.source?.accountId);
  check('destination.currencyCode', request.destination.currencyCode, p.destination?.currencyCode);
  check('destination.accountId', request.destination.accountId, p.destination?.accountId);
  check('reference', request.reference, p.reference);
  return differs;
}
