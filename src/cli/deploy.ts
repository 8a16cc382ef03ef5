// `xborder deploy status|set-current|ramp|stop-ramp` — Worker Deployment Versioning (docs/deployment.md,
// "Safe deploys with Worker Versioning"): which build gets new workflows. Arguments are checked before anything
// connects (parseDeployArgs, unit-tested); the server calls are src/client/worker-deployments.ts.
import type { Client } from '@temporalio/client';
import {
  describeWorkerDeployment,
  setCurrentVersion,
  setRampingVersion,
  DeploymentStepRefusedError,
  WorkerDeploymentNotFoundError,
  type DeploymentStatus,
  type DeploymentVersionSummary,
} from '../client/worker-deployments';
import {
  countOpenRuns,
  openRunQueries,
  withOpenRuns,
  type BuildOpenRuns,
} from '../client/deployment-open-runs';
import { DEFAULT_DEPLOYMENT_NAME } from '../../workers/config';
import { derivedBuildId, workflowBundleDigest } from '../../workers/build-id';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  cliContext,
  type ConnectionFlags,
  parseCommandArgs,
  printJson,
} from './cli-env';
import { EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

export const DEPLOY_USAGE = `Usage: xborder deploy <status|set-current|ramp|stop-ramp|drained|build-id> [options]
  status                      the current and ramping builds, every build's status, drainage and open runs
                              (counted in visibility; a build may stop once it holds 0 open PINNED runs)
  set-current <buildId>       new workflows (and AUTO_UPGRADE entities) go to this build; PINNED payments stay
                              on the build that started them
  ramp <buildId> <percent>    send percent (0-100) of new workflows to this build, the rest to the current one
  stop-ramp                   end the ramp: everything new goes to the current build
  drained <buildId>           exit 0 when the build holds no open PINNED run (its workers may stop), 1 while it does
  build-id                    the build id a worker derives from its workflow bundle (--bundle PATH, default
                              XBORDER_WORKFLOW_BUNDLE): what to pass to set-current; connects to nothing
  --deployment NAME           Worker Deployment (default: XBORDER_DEPLOYMENT_NAME / ${DEFAULT_DEPLOYMENT_NAME})
  --allow-no-pollers          accept a build no worker has polled with yet (its tasks wait for one)
  --json                      the result as one JSON document
${CONNECTION_USAGE}
A worker's build id is derived from its workflow bundle, <version>+<sha256, 12 hex> (docs/deployment.md, "Build
ids"); every worker is versioned; the first build of a deployment makes itself current when its worker starts, a
later one waits for set-current.
Exit codes: 0 done, 1 no such deployment or the server refused, 2 usage, 3 cannot connect.`;

export type DeployCommand =
  | { sub: 'status' }
  | { sub: 'set-current'; buildId: string }
  | { sub: 'ramp'; buildId: string; percentage: number }
  | { sub: 'stop-ramp' }
  | { sub: 'drained'; buildId: string }
  | { sub: 'build-id'; bundlePath: string };

export interface DeployArgs {
  help: boolean;
  command?: DeployCommand;
  deploymentName: string;
  allowNoPollers: boolean;
  json: boolean;
  connection: ConnectionFlags;
}

const SUBCOMMANDS = ['status', 'set-current', 'ramp', 'stop-ramp', 'drained', 'build-id'] as const;
/** How many positionals after the subcommand, and what they are (for the error). */
const ARITY: Record<(typeof SUBCOMMANDS)[number], { count: number; what: string }> = {
  status: { count: 0, what: 'no arguments' },
  'set-current': { count: 1, what: 'one build id' },
  ramp: { count: 2, what: 'a build id and a percentage' },
  'stop-ramp': { count: 0, what: 'no arguments' },
  drained: { count: 1, what: 'one build id' },
  'build-id': { count: 0, what: 'no arguments' },
};

/** Checks the arguments without connecting: every mistake is a UsageError (exit code 2) with the usage. */
export function parseDeployArgs(args: string[], env: Environment): DeployArgs {
  const { values, positionals } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: {
        deployment: { type: 'string' },
        bundle: { type: 'string' },
        'allow-no-pollers': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...CONNECTION_OPTIONS,
      },
    },
    DEPLOY_USAGE,
  );
  const deploymentName = values.deployment ?? env.XBORDER_DEPLOYMENT_NAME ?? DEFAULT_DEPLOYMENT_NAME;
  const common = {
    deploymentName,
    allowNoPollers: values['allow-no-pollers'] ?? false,
    json: values.json ?? false,
    connection: {
      ...(values.address ? { address: values.address } : {}),
      ...(values.namespace ? { namespace: values.namespace } : {}),
      ...(values['connect-timeout'] !== undefined ? { 'connect-timeout': values['connect-timeout'] } : {}),
    },
  };
  if (values.help) return { help: true, ...common };
  if (deploymentName.trim() === '') throw new UsageError('--deployment must not be empty', DEPLOY_USAGE);
  const [sub, ...rest] = positionals;
  if (sub === undefined) throw new UsageError('give a subcommand', DEPLOY_USAGE);
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`unknown subcommand "${sub}"`, DEPLOY_USAGE);
  const arity = ARITY[sub as (typeof SUBCOMMANDS)[number]];
  if (rest.length !== arity.count)
    throw new UsageError(
      `${sub} takes ${arity.what}, got ${rest.length === 0 ? 'none' : `"${rest.join(' ')}"`}`,
      DEPLOY_USAGE,
    );
  const buildId = rest[0];
  if (buildId !== undefined && buildId.trim() === '')
    throw new UsageError(`${sub}: the build id must not be empty`, DEPLOY_USAGE);
  switch (sub) {
    case 'set-current':
    case 'drained':
      return { help: false, ...common, command: { sub, buildId: buildId! } };
    case 'ramp': {
      const raw = rest[1]!.replace(/%$/, '');
      const percentage = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(percentage) || percentage < 0 || percentage > 100)
        throw new UsageError(
          `ramp: the percentage must be a number from 0 to 100, got "${rest[1]}"`,
          DEPLOY_USAGE,
        );
      return { help: false, ...common, command: { sub, buildId: buildId!, percentage } };
    }
    case 'status':
      return { help: false, ...common, command: { sub } };
    case 'build-id': {
      const bundlePath = values.bundle ?? env.XBORDER_WORKFLOW_BUNDLE;
      if (!bundlePath)
        throw new UsageError('build-id: give --bundle PATH (or set XBORDER_WORKFLOW_BUNDLE)', DEPLOY_USAGE);
      return { help: false, ...common, command: { sub, bundlePath } };
    }
    default:
      return { help: false, ...common, command: { sub: 'stop-ramp' } };
  }
}

export async function runDeploy(args: string[], env: Environment): Promise<number> {
  const parsed = parseDeployArgs(args, env);
  if (parsed.help || !parsed.command) {
    console.log(DEPLOY_USAGE);
    return EXIT.OK;
  }
  if (parsed.command.sub === 'build-id') {
    // the worker's own derivation (workers/build-id.ts), from the bundle file alone: no connection
    const digest = await workflowBundleDigest({ codePath: parsed.command.bundlePath });
    const buildId = derivedBuildId(digest);
    if (parsed.json) printJson({ buildId, bundleSha256: digest, bundlePath: parsed.command.bundlePath });
    else console.log(buildId);
    return EXIT.OK;
  }
  const ctx = await cliContext(parsed.connection, env);
  try {
    return await runDeployCommand(ctx.client, parsed.command, parsed);
  } catch (error) {
    if (error instanceof WorkerDeploymentNotFoundError) {
      if (parsed.json) printJson({ deploymentName: parsed.deploymentName, found: false });
      console.error(error.message);
      return EXIT.NOT_OK;
    }
    if (error instanceof DeploymentStepRefusedError) {
      if (parsed.json)
        printJson({
          deploymentName: parsed.deploymentName,
          refused: true,
          buildId: error.buildId,
          reason: error.serverMessage,
        });
      console.error(error.message);
      return EXIT.NOT_OK;
    }
    throw error;
  } finally {
    await ctx.close();
  }
}

export async function runDeployCommand(
  client: Client,
  command: Exclude<DeployCommand, { sub: 'build-id' }>,
  options: { deploymentName: string; allowNoPollers: boolean; json: boolean },
): Promise<number> {
  const name = options.deploymentName;
  const set = {
    allowNoPollers: options.allowNoPollers,
    identity: `xborder deploy (${client.options.identity})`,
  };
  const done = (text: string, result: Record<string, unknown>) => {
    if (options.json) printJson({ deploymentName: name, ...result });
    else console.log(text);
    return EXIT.OK;
  };
  switch (command.sub) {
    case 'status': {
      const status = await withOpenRuns(client, await describeWorkerDeployment(client, name));
      if (options.json) printJson(status);
      else console.log(formatStatus(status));
      return EXIT.OK;
    }
    case 'set-current': {
      const { previousBuildId } = await setCurrentVersion(client, name, command.buildId, set);
      return done(
        `${name}: current build ${command.buildId} (was ${previousBuildId ?? 'unversioned'}); PINNED workflows stay on their build until they close (xborder deploy status shows its drainage)`,
        { action: 'set-current', currentBuildId: command.buildId, previousBuildId },
      );
    }
    case 'ramp': {
      const previous = await setRampingVersion(client, name, command.buildId, command.percentage, set);
      return done(`${name}: ramping ${command.percentage}% of new workflows to build ${command.buildId}`, {
        action: 'ramp',
        rampingBuildId: command.buildId,
        rampingPercentage: command.percentage,
        previousBuildId: previous.previousBuildId,
        previousPercentage: previous.previousPercentage,
      });
    }
    case 'drained': {
      // the same visibility counts as `status` (deployment-open-runs.ts): a PINNED run finishes only on its build
      const runs = await countOpenRuns(client, name, command.buildId);
      const text = `${name}: build ${command.buildId} holds ${runs.pinned} open PINNED run(s) (${runs.open} open)${runs.pinned === 0 ? ': drained, its workers may stop' : ': keep its workers running'}`;
      if (options.json)
        printJson({
          deploymentName: name,
          buildId: command.buildId,
          drained: runs.pinned === 0,
          openRuns: runs,
        });
      else console.log(text);
      return runs.pinned === 0 ? EXIT.OK : EXIT.NOT_OK;
    }
    case 'stop-ramp': {
      const previous = await setRampingVersion(client, name, '', 0, set);
      return done(
        `${name}: no ramp (was ${previous.previousBuildId ?? 'none'} at ${previous.previousPercentage}%)`,
        {
          action: 'stop-ramp',
          previousBuildId: previous.previousBuildId,
          previousPercentage: previous.previousPercentage,
        },
      );
    }
  }
}

/** "3 open runs, 2 PINNED: holds this build" or "no open runs" (AUTO_UPGRADE runs move, PINNED ones need the build). */
export function formatOpenRuns(runs: BuildOpenRuns): string {
  if (runs.open === 0) return 'no open runs';
  return `${runs.open} open run${runs.open === 1 ? '' : 's'}, ${runs.pinned} PINNED${runs.pinned > 0 ? ': holds this build' : ''}`;
}

export type DeploymentStatusWithOpenRuns = Omit<DeploymentStatus, 'versions'> & {
  versions: Array<DeploymentVersionSummary & { openRuns: BuildOpenRuns }>;
};

export function formatStatus(s: DeploymentStatusWithOpenRuns): string {
  const width = Math.max(8, ...s.versions.map((v) => v.buildId.length));
  const drainage = (d: string | null) => (d ? `drainage ${d}` : '').padEnd(18);
  return [
    `Worker Deployment ${s.deploymentName}`,
    `  current:  ${s.currentBuildId ?? '- (unversioned workers)'}`,
    `  ramping:  ${s.rampingBuildId ? `${s.rampingBuildId} at ${s.rampingPercentage}%` : '-'}`,
    `  builds:`,
    ...s.versions.map(
      (v) =>
        `    ${v.buildId.padEnd(width)}  ${v.status.padEnd(8)}  ${drainage(v.drainage)}  ${formatOpenRuns(v.openRuns)}`,
    ),
    `  (open runs counted in visibility: ${openRunQueries(s.deploymentName, '<build>').open})`,
  ].join('\n');
}
