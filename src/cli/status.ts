import { parseArgs } from 'node:util';
import { cancelPayment, getPaymentState, toPaymentWorkflowId } from '../client/payments';
import { temporalUiLink } from '../client/stuck';
import type { PaymentState } from '../../workflows/messages';
import { cliContext } from './cli-env';

export function formatState(state: PaymentState, uiLink: string): string {
  const lines = [
    `payment        ${state.workflowId}`,
    `phase          ${state.phase}${state.outcome ? ` (outcome ${state.outcome.outcome})` : ''}`,
    `provider       ${state.providerPaymentId ?? '-'} ${state.providerStatus ?? ''}`.trimEnd(),
    `quote          ${state.quote ? `rate ${state.quote.exchangeRate}, expires ${state.quote.expiresAt}` : '-'}`,
    `funding until  ${state.fundingDeadline ?? '-'}`,
  ];
  if (state.fundingInstructions) {
    const f = state.fundingInstructions as Record<string, unknown>;
    lines.push(`send funds     ${String(f.amount)} ${String(f.currencyCode)} via ${String(f.rail)} to ${String(f.toAddress ?? '-')}`);
  }
  if (state.superseded.length > 0) lines.push(`superseded     ${state.superseded.map((s) => `${s.id} ${s.status}`).join(', ')}`);
  lines.push('timeline');
  for (const entry of state.timeline) lines.push(`  ${entry.at}  ${entry.kind}${entry.detail ? `  ${entry.detail}` : ''}`);
  lines.push(`ui             ${uiLink}`);
  return lines.join('\n');
}

export async function runStatus(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help || positionals.length !== 1) {
    console.log('Usage: xborder status <payment key | payment:<key>> [--json]');
    return values.help ? 0 : 2;
  }
  const ctx = await cliContext();
  try {
    const state = await getPaymentState(ctx.client, positionals[0]!);
    const link = temporalUiLink(ctx.uiUrl, ctx.namespace, toPaymentWorkflowId(positionals[0]!));
    console.log(values.json ? JSON.stringify(state, null, 2) : formatState(state, link));
    return 0;
  } finally {
    await ctx.close();
  }
}

export async function runCancel(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help || positionals.length !== 1) {
    console.log('Usage: xborder cancel <payment key | payment:<key>> [--reason "..."]\nRefused once funds are in.');
    return values.help ? 0 : 2;
  }
  const ctx = await cliContext();
  try {
    const state = await cancelPayment(ctx.client, positionals[0]!, values.reason);
    console.log(`cancelled: ${state.workflowId} (${state.phase})`);
    return 0;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    console.error(`cancel refused: ${cause?.message ?? (error as Error).message}`);
    return 1;
  } finally {
    await ctx.close();
  }
}
