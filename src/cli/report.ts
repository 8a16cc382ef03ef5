// `xborder report --from <day> --to <day>`: the reconciliation report (docs/reconciliation-report.md). Reads
// visibility and the service's list page by page, writes CSV, JSON and one offline HTML page, prints the summary.
// Exit code 0 when everything matches, 1 otherwise: a job alerts on it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readReconciliationReport } from '../../activities/report-reader';
import { createProviderClient } from '../provider';
import { createReportSpillStore } from '../../activities/report-spill';
import { writeReportFolder } from '../../activities/report-writer';
import { reportName } from '../report/files';
import { summaryText } from '../report/text';
import { reportWindow, ReportWindowError } from '../report/window';
import type { Environment } from '../support/environment';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, cliContext, parseCommandArgs, printJson } from './cli-env';
import { EXIT, UsageError } from './exit-codes';

const USAGE = `Usage: xborder report --from <day> --to <day> [--out DIR] [--json]
  --from, --to   UTC days (YYYY-MM-DD, both included) or ISO 8601 instants (the end excluded)
  --out DIR      where payments.csv, totals.csv, report.json and report.html go (default ./reports/<from>_<to>)
  --json         print the report as JSON instead of the summary
The service: XBORDER_PROVIDER_URL and XBORDER_PROVIDER_API_KEY; in a dev checkout, the sandbox of \`npm start\`
(http://127.0.0.1:4010, its key in .data/sandbox-api-key). XBORDER_PROVIDER_ALLOW_HTTP=1 for plain http to a
private host.
${CONNECTION_USAGE}
Exit codes: 0 everything matches, 1 mismatches found (or the command failed), 2 usage, 3 cannot connect.`;

const DEV_SANDBOX_URL = 'http://127.0.0.1:4010';

/** The dev stack's sandbox key, from the working directory upwards (as the CLI finds the codec key). */
function devSandboxKey(from: string): string | null {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const file = path.join(dir, '.data', 'sandbox-api-key');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    if (path.dirname(dir) === dir) return null;
  }
}

function providerOf(env: Environment) {
  const apiKey = env.XBORDER_PROVIDER_API_KEY ?? devSandboxKey(process.cwd());
  if (!apiKey)
    throw new UsageError(
      'no service key: set XBORDER_PROVIDER_URL and XBORDER_PROVIDER_API_KEY (or run inside a checkout after `npm start`)',
      USAGE,
    );
  return createProviderClient({
    baseUrl: env.XBORDER_PROVIDER_URL ?? DEV_SANDBOX_URL,
    apiKey,
    allowPlainHttp: env.XBORDER_PROVIDER_ALLOW_HTTP === '1',
    timeoutMs: 30_000,
  });
}

export async function runReport(args: string[], env: Environment): Promise<number> {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
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
  if (!values.from || !values.to) throw new UsageError('--from and --to are required', USAGE);
  let window;
  try {
    window = reportWindow(values.from, values.to);
  } catch (error) {
    if (error instanceof ReportWindowError) throw new UsageError(error.message, USAGE);
    throw error;
  }
  const provider = providerOf(env);
  const ctx = await cliContext(values, env);
  try {
    const out = path.resolve(values.out ?? path.join('reports', reportName({ window })));
    const report = await writeReportFolder(out, (onRow) =>
      readReconciliationReport(
        {
          client: ctx.client,
          listPayments: (query) => provider.payments.listAll(query),
          onRow,
          // nothing else here handles Ctrl-C: the join's temporary directory goes with it (report-spill.ts)
          spill: () => createReportSpillStore({ removeOnSignal: true }),
        },
        window,
        new Date(),
      ),
    );
    if (values.json) printJson(report);
    else
      process.stdout.write(
        `${summaryText(report)}written: ${out}/{payments.csv,totals.csv,report.json,report.html}\n`,
      );
    return report.allMatch ? EXIT.OK : EXIT.NOT_OK;
  } finally {
    await ctx.close();
  }
}
