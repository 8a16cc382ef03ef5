import { WorkflowNotFoundError } from '@temporalio/client';
import {
  cancelPayment,
  getPaymentState,
  PaymentAlreadyFinishedError,
  toPaymentWorkflowId,
} from '../client/payments';
import { temporalUiLink } from '../client/stuck';
import type { PaymentState } from '../../workflows/payment/api';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, cliContext, parseCommandArgs, printJson } from './cli-env';
import { CannotConnectError, EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

/**
 * Funding instructions are an instruction to pay: shown only while the payment waits for funds — never once it has
 * an outcome, after an accepted cancel, or once its quote expired (funds sent then come back as a refund).
 */
function awaitsFunds(state: PaymentState): boolean {
  return state.outcome === null && state.phase === 'AWAITING_FUNDS' && state.cancel?.decision !== 'ACCEPTED';
}

export function formatState(state: PaymentState, uiLink: string): string {
  const lines = [
    `payment        ${state.workflowId}`,
    `phase          ${state.phase}${state.outcome ? ` (outcome ${state.outcome.outcome})` : ''}`,
    `provider       ${state.providerPaymentId ?? '-'} ${state.providerStatus ?? ''}`.trimEnd(),
    `quote          ${state.quote ? `rate ${state.quote.exchangeRate}, expires ${state.quote.expiresAt}` : '-'}`,
    `funding until  ${state.fundingDeadline ?? '-'}`,
  ];
  if (state.afterOutcome) {
    // money moved after the outcome (a bank return after COMPLETED, a refund after EXPIRED): the outcome alone misleads
    const a = state.afterOutcome;
    lines.push(
      `AFTER OUTCOME  the provider now says ${a.providerStatus}${a.code ? ` (${a.code})` : ''}: money moved after the ${state.outcome?.outcome ?? ''} outcome; look at it`,
    );
  }
  if (state.fundingInstructions && awaitsFunds(state)) {
    const f = state.fundingInstructions as Record<string, unknown>;
    lines.push(
      `send funds     ${String(f.amount)} ${String(f.currencyCode)} via ${String(f.rail)} to ${String(f.toAddress ?? '-')}`,
    );
  }
  if (state.superseded.length > 0)
    lines.push(`superseded     ${state.superseded.map((s) => `${s.id} ${s.status}`).join(', ')}`);
  lines.push('timeline');
  for (const entry of state.timeline)
    lines.push(`  ${entry.at}  ${entry.kind}${entry.detail ? `  ${entry.detail}` : ''}`);
  lines.push(`ui             ${uiLink}`);
  return lines.join('\n');
}

/**
 * Exit code 1 for scripts: the payment ended other than COMPLETED, or an accepted cancel put it in phase CANCELLING
 * (it keeps listening until the provider payment can no longer be funded; funds arriving after all move it
 * out of CANCELLING again).
 */
export function willNotComplete(state: PaymentState): boolean {
  if (state.afterOutcome) return true; // a return or refund after the outcome: never "all is well"
  if (state.outcome) return state.outcome.outcome !== 'COMPLETED';
  return state.phase === 'CANCELLING' || state.phase === 'CANCELLED'; // CANCELLED: runs from before CANCELLING
}

const STATUS_USAGE = `Usage: xborder status <payment key | payment:<key>> [--json]
  --json      the payment's state as one JSON document
${CONNECTION_USAGE}
Exit codes: 0 in progress or COMPLETED, 1 ended other than COMPLETED, money moved after the outcome (a return
  after COMPLETED, a refund after EXPIRED: the AFTER OUTCOME line), or cancelled (phase CANCELLING: the payment
  listens until the provider says it can no longer be funded, then ends CANCELLED), or no such payment; 2 usage,
  3 cannot connect.`;

export async function runStatus(args: string[], env: Environment): Promise<number> {
  const { positionals, values } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...CONNECTION_OPTIONS },
    },
    STATUS_USAGE,
  );
  if (values.help) {
    console.log(STATUS_USAGE);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw new UsageError('give one payment key', STATUS_USAGE);
  const ctx = await cliContext(values, env);
  try {
    const state = await getPaymentState(ctx.client, positionals[0]!);
    const link = temporalUiLink(ctx.uiUrl, ctx.namespace, toPaymentWorkflowId(positionals[0]!));
    if (values.json) printJson({ ...state, ui: link });
    else console.log(formatState(state, link));
    return willNotComplete(state) ? EXIT.NOT_OK : EXIT.OK;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) {
      console.error(
        `xborder status: no payment ${toPaymentWorkflowId(positionals[0]!)} in namespace ${ctx.namespace}`,
      );
      return EXIT.NOT_OK;
    }
    throw error;
  } finally {
    await ctx.close();
  }
}

const CANCEL_USAGE = `Usage: xborder cancel <payment key | payment:<key>> [--reason "..."] [--json]
  Refused once funds are in.
  --json      the payment's state after the cancel as one JSON document ({ cancelled, state } or { cancelled, error })
${CONNECTION_USAGE}
Exit codes: 0 cancelled, 1 refused (funds in, already finished — the message gives its outcome — or no such
  payment), 2 usage, 3 cannot connect.`;

export async function runCancel(args: string[], env: Environment): Promise<number> {
  const { positionals, values } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: {
        reason: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...CONNECTION_OPTIONS,
      },
    },
    CANCEL_USAGE,
  );
  if (values.help) {
    console.log(CANCEL_USAGE);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw new UsageError('give one payment key', CANCEL_USAGE);
  const ctx = await cliContext(values, env);
  try {
    const state = await cancelPayment(ctx.client, positionals[0]!, values.reason);
    if (values.json) printJson({ cancelled: true, state });
    else console.log(`cancelled: ${state.workflowId} (${state.phase})`);
    return EXIT.OK;
  } catch (error) {
    if (error instanceof CannotConnectError) throw error;
    if (error instanceof PaymentAlreadyFinishedError) {
      if (values.json)
        printJson({ cancelled: false, finished: true, outcome: error.outcome, error: error.message });
      console.error(`cancel refused: ${error.message}`);
      return EXIT.NOT_OK;
    }
    const cause = (error as { cause?: { message?: string } }).cause;
    const message =
      error instanceof WorkflowNotFoundError
        ? `no payment ${toPaymentWorkflowId(positionals[0]!)}`
        : (cause?.message ?? (error as Error).message);
    if (values.json) printJson({ cancelled: false, error: message });
    console.error(`cancel refused: ${message}`);
    return EXIT.NOT_OK;
  } finally {
    await ctx.close();
  }
}
