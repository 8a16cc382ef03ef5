import { parseArgs } from 'node:util';
import { findStuckPayments, stuckQueries, temporalUiLink } from '../client/stuck';
import { cliContext, formatAge } from './cli-env';

export async function runStuck(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'in-progress-hours': { type: 'string' }, json: { type: 'boolean' }, queries: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log('Usage: xborder stuck [--in-progress-hours N] [--json] [--queries]\n--queries prints the visibility queries to paste into the Temporal UI.');
    return 0;
  }
  const hours = values['in-progress-hours'] ? Number(values['in-progress-hours']) : 24;
  if (!Number.isFinite(hours) || hours <= 0) {
    console.error('--in-progress-hours must be a positive number');
    return 2;
  }
  const options = { inProgressLimitMs: hours * 3_600_000 };
  if (values.queries) {
    for (const [kind, query] of Object.entries(stuckQueries(options))) console.log(`${kind}\n  ${query}`);
    return 0;
  }
  const ctx = await cliContext();
  try {
    const stuck = await findStuckPayments(ctx.client, options);
    if (values.json) {
      console.log(JSON.stringify(stuck.map((s) => ({ ...s, ui: temporalUiLink(ctx.uiUrl, ctx.namespace, s.workflowId, s.runId) })), null, 2));
    } else if (stuck.length === 0) {
      console.log('no stuck payments');
    } else {
      for (const s of stuck) {
        console.log(
          [s.kind, formatAge(s.ageMs), s.phase ?? '-', s.providerStatus ?? '-', s.providerPaymentId ?? '-', s.workflowId, temporalUiLink(ctx.uiUrl, ctx.namespace, s.workflowId, s.runId)].join('  '),
        );
      }
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
