// payment: validate → rate → limits → create → follow the provider payment to an outcome
// (ARCHITECTURE: Workflows; spec: States and transitions). ID `payment:<key>` chosen by the caller; the input is
// typed and parsed by the caller (src/client with the zod schema of inputs.ts; transfer with its own).
// PINNED (workflows/versioning.ts): a change ships as a new build, never behind patched().
import { CancellationScope, currentUpdateInfo, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  awaitCreatedForRequestUpdate,
  awaitCreatedUpdate,
  cancelUpdate,
  paymentWorkflowId,
  createdAnswerQuery,
  paymentStateQuery,
  requoteUpdate,
  resolveCreateUpdate,
  type PaymentInput,
  type PaymentOutcome,
} from './api';
import { providerPaymentChangedSignal } from '../provider-payment/api';
import { PaymentWorkflowState } from './state';
import { refuseInputOfAnotherWorkflow } from '../workflow-id-check';
import { validateRequest } from './steps/validate';
import { quoteAndCreate } from './steps/create';
import { awaitOperator, resolveCreate } from './steps/resolve-create';
import { requote } from './steps/requote';
import { followToOutcome } from './steps/follow';
import { tellNexusRelay } from './steps/tell-relay';

export async function payment(input: PaymentInput): Promise<PaymentOutcome> {
  // a start input copied under another ID (payment:<key>-<anything>) never acts: one key, one run moving money
  refuseInputOfAnotherWorkflow(paymentWorkflowId(input.paymentKey), workflowInfo().workflowId);
  const state = new PaymentWorkflowState(workflowInfo().workflowId, input);
  registerHandlers(state);
  // A Temporal cancel request is a request like the `cancel` update, never an interruption of a create or a wait
  // in flight: the body and the handlers run non-cancellable.
  CancellationScope.current().cancelRequested.catch(() => state.onTemporalCancel());
  return CancellationScope.nonCancellable(async () => {
    const outcome = await state.finish(await run(state));
    await tellNexusRelay(input.paymentKey); // a Nexus caller's relay reads the outcome at once
    return outcome;
  });
}

async function run(state: PaymentWorkflowState): Promise<PaymentOutcome> {
  // 1. validate (contract rules at the workflow's date); VALIDATING is not indexed: nobody can see it
  state.enterPhase('VALIDATING', false);
  const violations = await validateRequest(state);
  if (violations.length > 0) return { outcome: 'REJECTED', violations, payment: null };

  // 2–3. rate, limits, create
  state.enterPhase('QUOTING');
  if (state.cancel) return { outcome: 'CANCELLED', reason: state.cancel.reason, payment: null };
  // a cancel that came while getRate ran: nothing is created (no live instructions for a cancelled payment)
  const beforeCreate = () => (state.cancel ? 'a cancel came before the provider payment was created' : null);
  const first = await quoteAndCreate(state, 0, { beforeCreate });
  if ('lost' in first) {
    state.note('cancelled', `${state.pendingCancel()?.reason ?? 'cancelled'}: ${first.lost}`);
    return state.cancelledOutcome(null);
  }
  if ('rejected' in first) return { outcome: 'REJECTED', violations: first.rejected, payment: first.payment };
  if ('attention' in first) {
    // spec: Authentication 3 (the effect of a repeated key is not shown) — an operator decides (docs/spec-gaps.md)
    const ended = await awaitOperator(state, first.attention, first.idempotencyKey);
    if (ended) return ended;
  }

  // 4. follow to an outcome
  return followToOutcome(state);
}

/** Each handler's body is a method of the state or a step of its own. */
function registerHandlers(state: PaymentWorkflowState): void {
  const shielded =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      CancellationScope.nonCancellable(() => fn(...args));
  setHandler(paymentStateQuery, () => state.snapshot());
  setHandler(providerPaymentChangedSignal, ({ payment: p, cause }) => state.absorb(p, cause));
  // A query only (no command): a closed payment still answers a start that reached it late (startPayment).
  setHandler(createdAnswerQuery, () => state.createdAnswerNow());
  const awaitCreated = shielded(() => state.awaitCreated());
  setHandler(awaitCreatedUpdate, awaitCreated);
  setHandler(awaitCreatedForRequestUpdate, awaitCreated, { validator: (arg) => state.checkFingerprint(arg) });
  setHandler(
    cancelUpdate,
    shielded((arg) => state.requestCancel(arg)),
    { validator: (_arg: { reason?: string }) => state.validateCancel() },
  );
  setHandler(
    requoteUpdate,
    shielded(() => requote(state)),
    { validator: () => state.validateRequote(currentUpdateInfo()?.id) },
  );
  setHandler(
    resolveCreateUpdate,
    shielded((decision) => resolveCreate(state, decision)),
    { validator: (decision) => state.validateResolve(decision) },
  );
}
