// A Temporal client that records its signalWithStart calls instead of making them: for the code that signals
// entities through their front doors (the ingress's routing, the reconcile activity), checked on what it sends.
// Its visibility list answers with the running workflows it is given (the query is recorded, not evaluated).
import type { Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { PaymentStatusKey } from '../../workflows/search-attributes';

export interface SignalWithStartCall {
  type: string;
  options: Record<string, unknown>;
}

/** A workflow the fake visibility lists: its id and the PaymentStatus it has indexed (none: not set). */
export interface ListedWorkflow {
  workflowId: string;
  paymentStatus?: string;
}

export function recordingClient(visible: ListedWorkflow[] = []): {
  client: Client;
  calls: SignalWithStartCall[];
  lists: { query?: string; pageSize?: number }[];
} {
  const calls: SignalWithStartCall[] = [];
  const lists: { query?: string; pageSize?: number }[] = [];
  const client = {
    workflow: {
      signalWithStart: async (type: string, options: Record<string, unknown>) => {
        calls.push({ type, options });
        return {};
      },
      list: (options: { query?: string; pageSize?: number } = {}) => {
        lists.push(options);
        return (async function* () {
          for (const w of visible)
            yield {
              workflowId: w.workflowId,
              typedSearchAttributes: new TypedSearchAttributes(
                w.paymentStatus !== undefined ? [{ key: PaymentStatusKey, value: w.paymentStatus }] : [],
              ),
            };
        })();
      },
    },
  } as unknown as Client;
  return { client, calls, lists };
}
