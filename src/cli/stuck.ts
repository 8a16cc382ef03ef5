import { findStuckPayments, stuckQueries, temporalUiLink } from '../client/stuck';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  cliContext,
  formatAge,
  numberFlag,
  parseCommandArgs,
  printJson,
} from './cli-env';
import { EXIT } from './exit-codes';
import type { Environment } from '../support/environment';
import { DEFAULT_DEPLOYMENT_NAME } from '../../workers/config';

const USAGE = `Usage: xborder stuck [--in-progress-hours N] [--deployment NAME] [--json] [--queries]
  --in-progress-hours N  a payment in progress longer than N hours is stuck (default 24)
  --deployment NAME      the Worker Deployment whose old builds may hold waiting PINNED payments
                         (default: XBORDER_DEPLOYMENT_NAME / ${DEFAULT_DEPLOYMENT_NAME})
  --json                 the stuck payments as one JSON array (each with its Temporal UI link)
  --queries              print the visibility queries to paste into the Temporal UI (no connection)
${CONNECTION_USAGE}
Exit codes: 0 nothing stuck, 1 stuck payments found, 2 usage, 3 cannot connect.`;

export async function runStuck(args: string[], env: Environment): Promise<number> {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        'in-progress-hours': { type: 'string' },
        deployment: { type: 'string' },
        json: { type: 'boolean' },
        queries: { type: 'boolean' },
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
  const hours =
    numberFlag('in-progress-hours', values['in-progress-hours'], (n) => n > 0, 'a positive number', USAGE) ??
    24;
  const options = {
    inProgressLimitMs: hours * 3_600_000,
    deploymentName: values.deployment || env.XBORDER_DEPLOYMENT_NAME || DEFAULT_DEPLOYMENT_NAME,
  };
  if (values.queries) {
    const queries = stuckQueries(options);
    if (values.json) printJson(queries);
    else for (const [kind, query] of Object.entries(queries)) console.log(`${kind}\n  ${query}`);
    return EXIT.OK;
  }
  const ctx = await cliContext(values, env);
  try {
    const stuck = await findStuckPayments(ctx.client, options);
    if (values.json) {
      printJson(
        stuck.map((s) => ({ ...s, ui: temporalUiLink(ctx.uiUrl, ctx.namespace, s.workflowId, s.runId) })),
      );
    } else if (stuck.length === 0) {
      console.log('no stuck payments');
    } else {
      for (const s of stuck) {
        console.log(
          [
            s.kind,
            formatAge(s.ageMs),
            s.phase ?? '-',
            s.providerStatus ?? '-',
            s.providerPaymentId ?? '-',
            s.workflowId,
            temporalUiLink(ctx.uiUrl, ctx.namespace, s.workflowId, s.runId),
          ].join('  '),
        );
      }
    }
    // Alerts run `xborder stuck` and page on exit code 1.
    return stuck.length > 0 ? EXIT.NOT_OK : EXIT.OK;
  } finally {
    await ctx.close();
  }
}
