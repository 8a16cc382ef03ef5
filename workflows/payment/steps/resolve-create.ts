// The `resolveCreate` update: an operator's decision on a create whose outcome is unknown (phase
// NEEDS_ATTENTION; spec: Authentication 3; docs/spec-gaps.md, "Maybe created").
import { condition, workflowInfo } from '@temporalio/workflow';
import { readActivities } from '../../activity-options';
import type { Violation } from '../../../src/contract';
import {
  PAYMENT_FAILURE_TYPES,
  type PaymentOutcome,
  type PaymentState,
  type ResolveCreateDecision,
} from '../api';
import { refusal, type PaymentWorkflowState } from '../state';
import { adopt } from './create';

export async function resolveCreate(
  state: PaymentWorkflowState,
  decision: ResolveCreateDecision,
): Promise<PaymentState> {
  const pending = state.attention!;
  if ('noPaymentCreated' in decision) await refuseIfTheServiceHasOne(state);
  if (pending.first) {
    // the main body acts on it (it is waiting in NEEDS_ATTENTION: awaitOperator below)
    state.operatorDecided(decision);
    await condition(() => state.resolution === null);
    if (state.attention)
      throw refusal(
        PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
        `could not follow ${JSON.stringify(decision)}: ${state.resolveFailure ?? 'see the timeline'}`,
      );
    return state.snapshot();
  }
  if ('providerPaymentId' in decision) {
    // a requote's payment: tracked as superseded, so its funds (if any) are followed. `attention` stays set until
    // it is adopted: if the read fails the operator can try again, and no further requote can create yet another
    // provider payment meanwhile.
    state.resolvingRequoteCreate(true);
    try {
      await adopt(
        state,
        decision.providerPaymentId,
        'operator: made by a requote whose create outcome was unknown',
      );
    } finally {
      state.resolvingRequoteCreate(false);
    }
  } else state.note('resolved', `operator: ${pending.idempotencyKey} made no payment (${decision.reason})`);
  state.attentionSettled();
  return state.snapshot();
}

/**
 * The first create's outcome is unknown: wait for an operator (or a cancel). Returns the outcome that ends the
 * payment, or null once the operator's payment is adopted and followed.
 */
export async function awaitOperator(
  state: PaymentWorkflowState,
  reason: string,
  idempotencyKey: string,
): Promise<PaymentOutcome | null> {
  state.firstCreateNeedsOperator(reason, idempotencyKey);
  state.raise('CREATE_OUTCOME_UNKNOWN', null, `${idempotencyKey}: ${reason}`);
  state.enterPhase('NEEDS_ATTENTION');
  for (;;) {
    await condition(() => state.resolution !== null || state.cancel?.decision === 'PENDING');
    const asked = state.cancel;
    if (state.resolution === null && asked && state.pulls()) {
      // a pull payment the create may have made moved its funds when created (spec: rule 1): an operator must say
      // what happened first
      state.refuseCancel();
      state.note('cancel-refused', 'the create of a payment pulled from an account may have moved funds');
      continue;
    }
    if (state.resolution === null && asked) {
      // Nobody was given funding instructions for a payment we never saw: a cancel can be honoured. An unseen
      // payment, if it exists, expires unfunded on its own (docs/spec-gaps.md, "Maybe created").
      state.acceptCancel();
      state.note('cancelled', `${asked.reason} (via ${asked.via}) while the create needed an operator`);
      state.attentionSettled();
      return { outcome: 'CANCELLED', reason: asked.reason, payment: null };
    }
    const decision = state.resolution!;
    if ('noPaymentCreated' in decision) {
      state.note('resolved', `operator: ${idempotencyKey} made no payment (${decision.reason})`);
      state.operatorSaidNoPayment();
      const violation: Violation = {
        path: '',
        rule: PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN,
        message: `${reason}; operator: ${decision.reason}`,
      };
      return { outcome: 'REJECTED', violations: [violation], payment: null };
    }
    try {
      const p = await adopt(state, decision.providerPaymentId, 'operator: made by the first create');
      state.operatorPaymentAdopted(p);
      return null;
    } catch (err) {
      state.note('resolve-failed', String(err));
      state.operatorDecisionFailed(err instanceof Error ? err.message : String(err)); // the operator may try again
    }
  }
}

/**
 * "No payment was created" is checked against the service: this customer's payments that fit the request and were
 * made since the payment started (GET /payments/customer/:customerId). One found refuses the decision with the
 * evidence; a service that cannot be read refuses it too (the payment keeps waiting: never closed on a guess).
 */
async function refuseIfTheServiceHasOne(state: PaymentWorkflowState): Promise<void> {
  // a minute before the start: the first attempt's clock and the service's may differ a little
  const since = new Date(workflowInfo().startTime.getTime() - 60_000).toISOString();
  let found;
  try {
    found = await readActivities.findPaymentsLike(state.request, since);
  } catch (err) {
    throw refusal(
      PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
      `the service could not be searched for this payment just now (${String(err)}): try again`,
    );
  }
  const known = new Set(state.tracked.keys());
  const others = (found ?? []).filter((p) => !known.has(p.id));
  if (others.length > 0)
    throw refusal(
      PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
      `the service has ${others.map((p) => `${p.id} (${p.status})`).join(', ')} for this customer, fitting this request and made since the payment started: resolve with { providerPaymentId } if it is this payment's`,
    );
  if (found === null)
    state.note('resolve-unchecked', 'the request names no customer: the service was not searched');
}
