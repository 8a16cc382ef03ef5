// `xborder events redeliver|state [--transfer] <key>`: an operator's handle on a payment's (or, with --transfer, a
// transfer's) outbound events (docs/outbound-events.md, "When a backend is not told"). Shows ids, types and sequence
// numbers only.
import {
  getPaymentEventsState,
  getTransferEventsState,
  redeliverPaymentEvents,
  redeliverTransferEvents,
  type PaymentEventsSnapshot,
} from '../../workflows/payment-events/api';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, cliContext, parseCommandArgs, printJson } from './cli-env';
import { EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

const USAGE = `Usage: xborder events redeliver [--transfer] <paymentKey|transferKey> [--json]
       xborder events state [--transfer] <paymentKey|transferKey> [--json]
  redeliver  try the payment's undelivered events now, in order (after fixing the receiver or the endpoint)
  state      what waits to be delivered, and since when delivery fails
  --transfer the key is a transfer's: its own transfer.* events (its payment's are under its payment key)
${CONNECTION_USAGE}
Exit codes: 0 nothing waits undelivered, 1 events still undelivered or no delivery workflow, 2 usage, 3 cannot connect.`;

export async function runEvents(args: string[], env: Environment): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, transfer: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...CONNECTION_OPTIONS },
    },
    USAGE,
  );
  if (values.help) {
    console.log(USAGE);
    return EXIT.OK;
  }
  const [sub, paymentKey, ...rest] = positionals;
  if ((sub !== 'redeliver' && sub !== 'state') || !paymentKey || rest.length > 0) {
    throw new UsageError(sub === undefined ? 'give a subcommand' : `expected "redeliver|state <paymentKey>", got "${positionals.join(' ')}"`, USAGE);
  }
  const transfer = values.transfer === true;
  const key = paymentKey.replace(transfer ? /^transfer:/ : /^payment:/, '');
  const ctx = await cliContext(values, env);
  try {
    let state: PaymentEventsSnapshot;
    try {
      if (transfer) state = sub === 'redeliver' ? await redeliverTransferEvents(ctx.client, key) : await getTransferEventsState(ctx.client, key);
      else state = sub === 'redeliver' ? await redeliverPaymentEvents(ctx.client, key) : await getPaymentEventsState(ctx.client, key);
    } catch (err) {
      if ((err as { name?: string }).name !== 'WorkflowNotFoundError') throw err;
      if (values.json) printJson({ [transfer ? 'transferKey' : 'paymentKey']: key, found: false });
      else console.error(`no running delivery workflow for ${key}: every event handed over was delivered, or none was`);
      return EXIT.NOT_OK;
    }
    if (values.json) printJson(state);
    else {
      console.log(`${state.paymentKey}: ${state.delivered} delivered in this run, ${state.pending.length} waiting`);
      if (state.undeliveredSince) console.log(`  undelivered since ${state.undeliveredSince}: ${state.lastError ?? ''}`);
      for (const p of state.pending) console.log(`  #${p.sequence} ${p.type} ${p.id}`);
      if (sub === 'redeliver' && state.pending.length > 0) console.log('  redelivery asked: `xborder events state` shows progress');
    }
    return state.undeliveredSince === null ? EXIT.OK : EXIT.NOT_OK;
  } finally {
    await ctx.close();
  }
}
