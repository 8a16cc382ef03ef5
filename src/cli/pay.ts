import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startPayment } from '../client/payments';
import { temporalUiLink } from '../client/stuck';
import { cliContext } from './cli-env';
import { watchPayment } from './watch';

const USAGE = `Usage: xborder pay --key <payment key> --request <file.json | -> [--max-fee N] [--max-drift F] [--watch]
  --request   the POST /payments body (spec: Endpoints, POST /payments body); - reads standard input
  --max-fee   refuse when the rate's total fee (source currency) is above N
  --max-drift refuse when the payment's quote drifts from the rate by more than F (a fraction, e.g. 0.01)
  --watch     follow the payment until its outcome`;

export async function runPay(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      request: { type: 'string' },
      'max-fee': { type: 'string' },
      'max-drift': { type: 'string' },
      watch: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.key || !values.request) {
    console.error(`xborder pay: --key and --request are required\n\n${USAGE}`);
    return 2;
  }
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(readFileSync(values.request === '-' ? 0 : values.request, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    console.error(`xborder pay: --request ${values.request} is not a readable JSON file: ${(error as Error).message}`);
    return 2;
  }
  const limits: { maxTotalFee?: number; maxRateDrift?: number } = {};
  if (values['max-fee']) limits.maxTotalFee = Number(values['max-fee']);
  if (values['max-drift']) limits.maxRateDrift = Number(values['max-drift']);

  const ctx = await cliContext();
  try {
    const started = await startPayment(ctx.client, { paymentKey: values.key, request, limits }, { taskQueue: ctx.taskQueue });
    const link = temporalUiLink(ctx.uiUrl, ctx.namespace, started.workflowId);
    if (started.created.outcome === 'REJECTED') {
      console.log(`refused before any payment was created (${started.workflowId}):`);
      for (const v of started.created.violations) console.log(`  ${v.path}: ${v.message} [${v.rule}]`);
      return 1;
    }
    if (started.created.outcome === 'NEEDS_ATTENTION') {
      // the create may have reached the service: not refused, an operator decides (phase NEEDS_ATTENTION)
      console.log(`payment ${started.workflowId} needs an operator: ${started.created.reason}`);
      console.log(`  ${link}`);
      return 1;
    }
    const c = started.created;
    console.log(`payment ${started.workflowId} → provider payment ${c.providerPaymentId}`);
    console.log(`  quote: rate ${c.quote.exchangeRate}, valid until ${c.quote.expiresAt}; fee ${c.fee}`);
    if (!c.pulledFromAccount) {
      const f = c.fundingInstructions as Record<string, unknown>;
      console.log(`  send ${String(f.amount)} ${String(f.currencyCode)} via ${String(f.rail)} to ${String(f.toAddress ?? '-')} before ${c.quote.expiresAt}`);
    }
    console.log(`  ${link}`);
    if (!values.watch) return 0;
    const final = await watchPayment(ctx.client, started.workflowId);
    console.log(`outcome: ${final.outcome?.outcome}`);
    return final.outcome?.outcome === 'COMPLETED' ? 0 : 1;
  } finally {
    await ctx.close();
  }
}
