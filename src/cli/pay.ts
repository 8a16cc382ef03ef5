import { readFileSync } from 'node:fs';
import { startPayment } from '../client/payments';
import {
  checkPaymentInput,
  PaymentRequestInvalidError,
  type PaymentRequest,
} from '../client/payment-request';
import { temporalUiLink } from '../client/stuck';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  cliContext,
  numberFlag,
  parseCommandArgs,
  printJson,
} from './cli-env';
import { EXIT, UsageError } from './exit-codes';
import { formatViolations, quoteLine } from './format-problems';
import { watchPayment } from './watch';
import type { Environment } from '../support/environment';

const USAGE = `Usage: xborder pay --key <payment key> --request <file.json | -> [--max-fee N] [--max-drift F] [--watch] [--json]
  --request   the POST /payments body (spec: Endpoints, POST /payments body); - reads standard input
  --max-fee   refuse when the rate's total fee (source currency) is above N
  --max-drift refuse when the payment's quote drifts from the rate by more than F (a fraction, e.g. 0.01)
  --watch     follow the payment until its outcome (exit code 0 only when it is COMPLETED)
  --json      print the result as one JSON document (with --watch: once, at the outcome)
${CONNECTION_USAGE}
Exit codes: 0 started (or COMPLETED with --watch), 1 refused or not COMPLETED, 2 usage or a bad request, 3 cannot connect.`;

function readRequest(source: string): Record<string, unknown> {
  let request: unknown;
  try {
    request = JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8'));
  } catch (error) {
    throw new UsageError(`--request ${source} is not a readable JSON file: ${(error as Error).message}`);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new UsageError(`--request ${source} must hold a JSON object (the POST /payments body)`);
  }
  return request as Record<string, unknown>;
}

export async function runPay(args: string[], env: Environment): Promise<number> {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        key: { type: 'string' },
        request: { type: 'string' },
        'max-fee': { type: 'string' },
        'max-drift': { type: 'string' },
        watch: { type: 'boolean' },
        json: { type: 'boolean' },
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
  if (!values.key || !values.request) throw new UsageError('--key and --request are required', USAGE);
  // Everything the caller gave is checked before connecting: numbers, the input's shape, the request's rules.
  const limits: { maxTotalFee?: number; maxRateDrift?: number } = {};
  const maxFee = numberFlag('max-fee', values['max-fee'], (n) => n >= 0, 'a number ≥ 0', USAGE);
  const maxDrift = numberFlag(
    'max-drift',
    values['max-drift'],
    (n) => n >= 0,
    'a fraction ≥ 0 (e.g. 0.01)',
    USAGE,
  );
  if (maxFee !== undefined) limits.maxTotalFee = maxFee;
  if (maxDrift !== undefined) limits.maxRateDrift = maxDrift;
  // checked at run time (a file is any JSON): the same checks as startPayment's, before connecting
  const input = { paymentKey: values.key, request: readRequest(values.request) as PaymentRequest, limits };
  try {
    checkPaymentInput(input, new Date());
  } catch (error) {
    if (!(error instanceof PaymentRequestInvalidError)) throw error;
    // the fields of the request file as the caller wrote them (source.rail), the key as --key
    const named = error.violations.map((v) => ({
      ...v,
      path: v.path === 'paymentKey' ? '--key' : v.path.replace(/^request\.?/, ''),
    }));
    throw new UsageError(
      `the request is refused (nothing was sent; the key is still free):\n${formatViolations(named)}`,
    );
  }

  const ctx = await cliContext(values, env);
  try {
    const started = await startPayment(ctx.client, input, { taskQueue: ctx.taskQueue });
    const ui = temporalUiLink(ctx.uiUrl, ctx.namespace, started.workflowId);
    if (started.created.outcome === 'NEEDS_ATTENTION') {
      // the create may have reached the service: not refused, an operator decides (phase NEEDS_ATTENTION)
      if (values.json) printJson({ workflowId: started.workflowId, created: started.created, ui });
      else console.log(`payment ${started.workflowId} needs an operator: ${started.created.reason}\n  ${ui}`);
      return EXIT.NOT_OK;
    }
    const c = started.created;
    if (c.outcome === 'REJECTED') {
      if (values.json) printJson({ workflowId: started.workflowId, created: c, ui });
      else
        console.log(
          `refused before any payment was created (${started.workflowId}):\n${formatViolations(c.violations)}`,
        );
      return EXIT.NOT_OK;
    }
    if (!values.json) {
      console.log(`payment ${started.workflowId} → provider payment ${c.providerPaymentId}`);
      console.log(`  ${quoteLine(c.quote, c)}`);
      if (!c.pulledFromAccount) {
        const f = c.fundingInstructions as Record<string, unknown>;
        console.log(
          `  send ${String(f.amount)} ${String(f.currencyCode)} via ${String(f.rail)} to ${String(f.toAddress ?? '-')} before ${c.quote.expiresAt}`,
        );
      }
      console.log(`  ${ui}`);
    }
    if (!values.watch) {
      if (values.json) printJson({ workflowId: started.workflowId, created: c, ui });
      return EXIT.OK;
    }
    const final = await watchPayment(
      ctx.client,
      started.workflowId,
      values.json ? () => undefined : console.log,
    );
    if (values.json)
      printJson({ workflowId: started.workflowId, created: c, ui, outcome: final.outcome, state: final });
    else console.log(`outcome: ${final.outcome?.outcome}`);
    return final.outcome?.outcome === 'COMPLETED' ? EXIT.OK : EXIT.NOT_OK;
  } finally {
    await ctx.close();
  }
}
