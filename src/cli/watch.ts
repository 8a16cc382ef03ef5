import type { Client } from '@temporalio/client';
import { getPaymentState } from '../client/payments';
import type { PaymentState } from '../../workflows/payment/api';

/**
 * Prints each new timeline entry of a payment as it happens, until it has an outcome. Polls the `state`
 * query (a query is cheap and needs no history replay on a cached workflow).
 */
export async function watchPayment(
  client: Client,
  workflowId: string,
  print: (line: string) => void = console.log,
  pollMs = 500,
): Promise<PaymentState> {
  let printed = 0;
  for (;;) {
    const state = await getPaymentState(client, workflowId);
    for (const entry of state.timeline.slice(printed)) {
      print(`  ${entry.at}  ${entry.kind}${entry.detail ? `  ${entry.detail}` : ''}`);
    }
    printed = state.timeline.length;
    if (state.outcome) return state;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
