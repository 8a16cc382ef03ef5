// The transfer's side of outbound events (docs/outbound-events.md, "Transfers"): at each change a backend acts on
// (customer approved or not, account registered or rejected, payment started, the outcome) the transfer hands a
// `transfer.*` event to its delivery workflow `transfer-events:<transferKey>` by a local activity (signalWithStart),
// one after another in the order of the changes, never waiting for the receiver; it waits only before it returns
// (`settled`), so no event is left behind. A transfer started without `events` emits and records nothing.
import { workflowInfo } from '@temporalio/workflow';
import type { XborderTransferEvent, XborderTransferEventType } from '../../../src/contract';
import type { TransferInput } from '../api';
import type { TransferProgress } from '../state';
import { transferEventHandOverActivities } from '../../activity-options';

export interface TransferEventEmitter {
  /**
   * `outcome`: the transfer's, when this change ends it; `code`: see XborderTransferEventDataSchema (never a
   * customer's or an account's id or data). Never waits.
   */
  emit(
    type: XborderTransferEventType,
    progress: TransferProgress,
    detail?: { outcome?: string; code?: string | null },
  ): void;
  /** Resolves when every event emitted so far is handed over: await it before the workflow returns. */
  settled(): Promise<void>;
}

const SILENT: TransferEventEmitter = { emit: () => undefined, settled: () => Promise.resolve() };

/** The key of the transfer's payment (steps/pay.ts uses the same rule). */
export function transferPaymentKey(input: TransferInput): string {
  return input.payment.paymentKey ?? input.transferKey;
}

/** One per transfer run (no module state: workflow modules may be shared between runs). */
export function transferEventEmitter(input: TransferInput): TransferEventEmitter {
  if (!input.events) return SILENT;
  const endpointUrl = input.events.url ?? null;
  // the run's first run id: a key reused by a later transfer never repeats an event id
  const idPrefix = workflowInfo().firstExecutionRunId;
  let sequence = 0;
  let tail: Promise<void> = Promise.resolve();
  return {
    emit(type, progress, detail = {}) {
      sequence++;
      const event: XborderTransferEvent = {
        id: `${idPrefix}:${sequence}`,
        type,
        version: 1,
        sequence,
        occurredAt: new Date().toISOString(),
        transferKey: input.transferKey,
        data: {
          step: progress.state.step,
          outcome: detail.outcome ?? null,
          paymentKey: transferPaymentKey(input),
          code: detail.code ?? null,
          cancelRequested: progress.state.cancelRequested === true,
        },
      };
      tail = tail.then(() =>
        transferEventHandOverActivities.handOverTransferEvent(input.transferKey, endpointUrl, event),
      );
    },
    settled: () => tail,
  };
}
