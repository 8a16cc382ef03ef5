// The event ids xborder's own producers give the events they send an entity, listed once. The providerPayment entity
// drops an event whose id it has seen (workflows/provider-payment/state.ts), so a signed webhook carrying one of these
// ids would make it drop the internal event as a duplicate: the reconcile sweep's listing of a final status, or the
// payment's own GET. The ingress refuses a webhook whose id starts with a prefix here (src/ingress/handler.ts;
// docs/spec-gaps.md, "Ingress"). Fixing it at the door keeps the entity's dedupe as it is (AUTO_UPGRADE code).
// Pure: imported by workflow code, activities and the ingress alike. A new producer adds its prefix here.

/** Every prefix of an internal event id. The service's own ids (`evt_…`) start with none of them. */
export const INTERNAL_EVENT_ID_PREFIXES = {
  /** the reconcile sweep's listing of a payment (activities/reconcile-activities.ts) */
  reconcile: 'reconcile:',
  /** a state the payment workflow read itself (workflows/provider-payment/api.ts, observedEvent) */
  observed: 'observed:',
} as const;

/** One id per status the sweep saw: a second sweep of an unchanged payment is a duplicate the entity drops. */
export const reconcileEventId = (providerPaymentId: string, status: string): string =>
  `${INTERNAL_EVENT_ID_PREFIXES.reconcile}${providerPaymentId}:${status}`;

/** One id per observed state (status and the lifecycle stamps set, sorted): the same state told twice is dropped. */
export const observedEventId = (providerPaymentId: string, status: string, stamps: string): string =>
  `${INTERNAL_EVENT_ID_PREFIXES.observed}${providerPaymentId}:${status}:${stamps}`;

/** The internal prefix `id` starts with, if any (exact, as the entity compares ids exactly). */
export function internalEventIdPrefix(id: string): string | undefined {
  return Object.values(INTERNAL_EVENT_ID_PREFIXES).find((prefix) => id.startsWith(prefix));
}
