// What a transfer knows as it goes: the step it is at (the transferState query) and the result it builds.
import type { TransferResult, TransferState } from './api';

export class TransferProgress {
  readonly state: TransferState = {
    step: 'ONBOARDING',
    customerId: null,
    accountId: null,
    paymentWorkflowId: null,
  };
  readonly result: TransferResult = {
    outcome: 'COMPLETED',
    customerId: null,
    accountId: null,
    customer: null,
    account: null,
    payment: null,
    paymentWorkflowId: null,
  };

  /** the transferState query's answer (a copy: a caller never holds the live state) */
  snapshot(): TransferState {
    return { ...this.state };
  }

  /** the transfer ends here with this outcome */
  end(outcome: TransferResult['outcome']): TransferResult {
    return { ...this.result, outcome };
  }
}
