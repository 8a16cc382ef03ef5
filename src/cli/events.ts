// `xborder events redeliver|state [--transfer] <key>` and `xborder events redeliver --all`: an operator's handle on a
// payment's (or, with --transfer, a transfer's) outbound events (docs/outbound-events.md, "When a backend is not
// told"). Shows ids, types, sequence numbers and the receiver's last answer only.
import {
  getPaymentEventsState,
  getTransferEventsState,
  paymentEventsWorkflowId,
  redeliverPaymentEvents,
  redeliverTransferEvents,
  transferEventsWorkflowId,
  type PaymentEventsSnapshot,
} from '../../workflows/payment-events/api';
import {
  describeEventDelivery,
  redeliverAllEvents,
  retryPendingDeliveryNow,
  type EventDeliveryAttempt,
} from '../client/event-delivery-status';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { transferWorkflowId } from '../../workflows/transfer/api';
import type { Client } from '@temporalio/client';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, cliContext, parseCommandArgs, printJson } from './cli-env';
import { EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

const USAGE = `Usage: xborder events redeliver [--transfer] <paymentKey|transferKey> [--json]
       xborder events redeliver --all [--json]
       xborder events state [--transfer] <paymentKey|transferKey> [--json]
  redeliver  try the payment's undelivered events now, in order (after fixing the receiver or the endpoint);
             --all: every running delivery workflow (those with nothing waiting ignore it)
  state      what waits to be delivered; the current attempt (its number, the receiver's last answer, the next
             retry); since when a whole retry window failed
  --transfer the key is a transfer's: its own transfer.* events (its payment's are under its payment key)
${CONNECTION_USAGE}
Exit codes: state: 0 nothing waits, 1 events wait undelivered or no delivery workflow; redeliver: 0 asked, 1 no
delivery workflow; 2 usage, 3 cannot connect.`;

export async function runEvents(args: string[], env: Environment): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        transfer: { type: 'boolean' },
        all: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...CONNECTION_OPTIONS,
      },
    },
    USAGE,
  );
  if (values.help) {
    console.log(USAGE);
    return EXIT.OK;
  }
  const [sub, paymentKey, ...rest] = positionals;
  if (values.all) {
    if (sub !== 'redeliver' || paymentKey !== undefined || values.transfer)
      throw new UsageError('--all goes with `redeliver` alone (no key, no --transfer)', USAGE);
    const ctx = await cliContext(values, env);
    try {
      const asked = await redeliverAllEvents(ctx.client);
      if (values.json) printJson({ redeliveryAsked: asked });
      else
        console.log(
          `redelivery asked of ${asked.length} delivery workflow(s): \`xborder events state <key>\` shows progress`,
        );
      return EXIT.OK;
    } finally {
      await ctx.close();
    }
  }
  if ((sub !== 'redeliver' && sub !== 'state') || !paymentKey || rest.length > 0) {
    throw new UsageError(
      sub === undefined
        ? 'give a subcommand'
        : `expected "redeliver|state <paymentKey>", got "${positionals.join(' ')}"`,
      USAGE,
    );
  }
  const transfer = values.transfer === true;
  const key = paymentKey.replace(transfer ? /^transfer:/ : /^payment:/, '');
  const workflowId = transfer ? transferEventsWorkflowId(key) : paymentEventsWorkflowId(key);
  const ctx = await cliContext(values, env);
  try {
    let state: PaymentEventsSnapshot;
    let attempt: EventDeliveryAttempt | null;
    try {
      if (transfer)
        state =
          sub === 'redeliver'
            ? await redeliverTransferEvents(ctx.client, key)
            : await getTransferEventsState(ctx.client, key);
      else
        state =
          sub === 'redeliver'
            ? await redeliverPaymentEvents(ctx.client, key)
            : await getPaymentEventsState(ctx.client, key);
      // the POST waiting in Temporal's backoff runs now too, not at its next retry (up to 15 min away)
      if (sub === 'redeliver' && state.pending.length > 0)
        await retryPendingDeliveryNow(ctx.client, workflowId);
      attempt = state.pending.length > 0 ? await describeEventDelivery(ctx.client, workflowId) : null;
    } catch (err) {
      if ((err as { name?: string }).name !== 'WorkflowNotFoundError') throw err;
      const started = await wasStarted(
        ctx.client,
        transfer ? transferWorkflowId(key) : paymentWorkflowId(key),
      );
      const what = transfer ? 'transfer' : 'payment';
      if (values.json) printJson({ [`${what}Key`]: key, found: false, [`${what}Started`]: started });
      else
        console.error(
          started
            ? `no running delivery workflow for ${key}: the ${what} asked for no events, or every event it handed over was delivered`
            : `no ${what} was started under the key ${key}`,
        );
      return EXIT.NOT_OK;
    }
    if (values.json) printJson({ ...state, attempt });
    else printState(state, attempt, sub === 'redeliver');
    // redeliver worked once it was asked (the delivery itself is asynchronous); state says whether events wait
    if (sub === 'redeliver') return EXIT.OK;
    return state.pending.length === 0 ? EXIT.OK : EXIT.NOT_OK;
  } finally {
    await ctx.close();
  }
}

function printState(
  state: PaymentEventsSnapshot,
  attempt: EventDeliveryAttempt | null,
  redeliver: boolean,
): void {
  console.log(
    `${state.paymentKey}: ${state.delivered} delivered in this run, ${state.pending.length} waiting`,
  );
  for (const p of state.pending) console.log(`  #${p.sequence} ${p.type} ${p.id}`);
  if (attempt) {
    const when =
      attempt.state === 'RUNNING'
        ? 'running now'
        : attempt.nextAttemptAt
          ? `next at ${attempt.nextAttemptAt}`
          : 'next not scheduled';
    console.log(
      `  attempt ${attempt.attempt} (${when})${attempt.lastError ? `; last: ${attempt.lastError}${attempt.lastAttemptAt ? ` at ${attempt.lastAttemptAt}` : ''}` : ''}`,
    );
  }
  if (state.undeliveredSince)
    console.log(
      `  a whole retry window failed; undelivered since ${state.undeliveredSince}: ${state.lastError ?? ''}`,
    );
  if (redeliver && state.pending.length > 0)
    console.log('  redelivery asked: `xborder events state` shows progress');
}

/** Whether a workflow ever ran under `workflowId` (so "no delivery workflow" can say which case it is). */
async function wasStarted(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'WorkflowNotFoundError') return false;
    throw err;
  }
}
