// The `requote` update: a new provider payment with a fresh quote, once the quote has expired (spec: States and
// transitions; docs/spec-gaps.md, "Requote"). Keyed by its update ID: the same ID never creates twice.
import { condition, currentUpdateInfo } from '@temporalio/workflow';
import { PAYMENT_FAILURE_TYPES, type PaymentCreated } from '../api';
import { refusal, type CreateResult, type PaymentWorkflowState, type RequoteAnswer } from '../state';
import { quoteAndCreate } from './create';

export async function requote(state: PaymentWorkflowState): Promise<PaymentCreated> {
  const updateId = currentUpdateInfo()?.id;
  await condition(() => !state.requoting);
  const known = updateId === undefined ? undefined : state.requoteNumbers.get(updateId);
  // The server dedupes an update ID it still remembers; one that reaches us again (e.g. after the server
  // forgot it) gets the first answer, never a second run of rate/create that skips every check.
  const firstAnswer =
    known !== undefined && updateId !== undefined ? state.requoteAnswers.get(updateId) : undefined;
  if (firstAnswer) {
    state.note('requote', `requote ${known} asked again with the same update ID: first answer given`);
    return answerOrThrow(firstAnswer);
  }
  // the validator's checks again: this body runs later than the validator (after the wait above)
  const blocker = known !== undefined ? null : state.requoteBlocker();
  if (blocker) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, blocker);
  state.requoteRunning(true);
  try {
    // The same update ID maps to the same n, so to the same idempotency key `<workflowId>:create:<n>`.
    const n = state.numberRequote(updateId, known);
    state.note('requote', `requote ${n} requested`);
    const result = await quoteAndCreate(state, n, { lostTo: () => state.requoteLostTo() });
    const first = requoteAnswerOf(state, result);
    state.answerRequote(updateId, first);
    return answerOrThrow(first);
  } finally {
    state.requoteRunning(false);
  }
}

function answerOrThrow(first: RequoteAnswer): PaymentCreated {
  if ('refused' in first) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, first.refused);
  return first.answer;
}

/** A requote's answer, or why it is refused (its side effects — NEEDS_ATTENTION — happen here, once). */
function requoteAnswerOf(state: PaymentWorkflowState, result: CreateResult): RequoteAnswer {
  if ('rejected' in result) return { answer: { outcome: 'REJECTED', violations: result.rejected } };
  if ('attention' in result) {
    state.requoteCreateNeedsOperator(result.attention, result.idempotencyKey);
    state.raise('CREATE_OUTCOME_UNKNOWN', null, `${result.idempotencyKey}: ${result.attention}`);
    return { answer: { outcome: 'NEEDS_ATTENTION', reason: result.attention } };
  }
  if ('lost' in result)
    return {
      refused: result.payment
        ? `${result.lost}; the new provider payment ${result.payment.id} is never used: it is tracked (superseded) until it expires`
        : result.lost,
    };
  return { answer: result.created };
}
