// The reserved workflow IDs whose payloads are a Nexus caller's (docs/codec.md, "Nexus callers"). A payment's
// outcome reaches a caller with its own key set through a relay workflow `nexus-outcome:<endpoint>:<paymentKey>`
// (workflows/nexus-outcome): the relay's payloads (its activity's answer and its result, which Temporal delivers to
// the caller by callback) are encrypted with the key set of the endpoint its ID names, so the caller reads the
// outcome without xborder's keys. The relay has no input and one message without payload (`paymentClosed`, which
// only makes it read again): nothing a caller writes is read in it, and the payment it reads is named by its own ID
// (and must name the relay's endpoint as its owner). No other workflow type runs under this prefix: every bundle's
// first interceptor refuses it (workflows/reserved-id-interceptor.ts); an endpoint name holds no `:`
// (nexus-caller-keys.ts).
// Pure: imported by the codec, the workflow's API and the Nexus handler alike.

/** The reserved prefix of the relays' workflow IDs. */
export const NEXUS_OUTCOME_WORKFLOW_ID_PREFIX = 'nexus-outcome:';

/** The relay of `paymentKey`'s outcome for the caller of `endpoint`. */
export function nexusOutcomeWorkflowId(endpoint: string, paymentKey: string): string {
  return `${NEXUS_OUTCOME_WORKFLOW_ID_PREFIX}${endpoint}:${paymentKey}`;
}

/** The endpoint and payment key a relay ID names, or undefined for any other ID. */
export function nexusOutcomeOf(workflowId: string): { endpoint: string; paymentKey: string } | undefined {
  if (!workflowId.startsWith(NEXUS_OUTCOME_WORKFLOW_ID_PREFIX)) return undefined;
  const rest = workflowId.slice(NEXUS_OUTCOME_WORKFLOW_ID_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0 || colon === rest.length - 1) return undefined;
  return { endpoint: rest.slice(0, colon), paymentKey: rest.slice(colon + 1) };
}
