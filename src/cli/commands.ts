import { EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

export interface Command {
  name: string;
  summary: string;
  /**
   * Resolves with the process exit code. Long-running commands resolve when they stop. `env` is the process's
   * environment as the CLI's entry (main.ts) read it: commands parse what they need from it, never process.env.
   */
  run(args: string[], env: Environment): Promise<number>;
}

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/**
 * The services configured from the environment take no arguments: one given is a mistake (a flag meant for
 * another command, a typo), answered as a usage error rather than ignored by a server that then starts anyway.
 */
function refuseArguments(command: string, args: string[]): void {
  if (args.length > 0) {
    throw new UsageError(
      `takes no arguments (configured from the environment; see \`xborder ${command} --help\`), got "${args.join(' ')}"`,
    );
  }
}

/**
 * @temporalio/worker is an optional peer dependency (its native bridge is ~150 MB; client-only users skip it):
 * commands that run a worker say how to add it rather than failing with "Cannot find module".
 */
function workerInstalled(command: string): boolean {
  try {
    require.resolve('@temporalio/worker');
    return true;
  } catch {
    console.error(
      `xborder ${command}: needs @temporalio/worker (an optional peer dependency): npm install @temporalio/worker@1.24.0`,
    );
    return false;
  }
}

export const commands: Command[] = [
  {
    name: 'dev',
    summary: 'the whole local stack: Temporal dev server, sandbox, ingress, worker, and a demo transfer',
    // the help is printed without importing ./dev, which loads @temporalio/worker (absent in a client-only install)
    run: async (args, env) => {
      if (wantsHelp(args)) {
        console.log((await import('./dev-usage')).DEV_USAGE);
        return EXIT.OK;
      }
      return workerInstalled('dev') ? (await import('./dev')).runDev(args, env) : EXIT.USAGE;
    },
  },
  {
    name: 'sandbox',
    summary: 'the emulator of the payments service (see docs/sandbox.md)',
    run: async (args, env) => (await import('./sandbox-command')).runSandboxCommand(args, env),
  },
  {
    name: 'worker',
    summary: 'the Temporal worker (configured from the environment, see `xborder worker --help`)',
    run: async (args, env) => {
      if (wantsHelp(args)) return (await import('./service-help')).printWorkerHelp();
      refuseArguments('worker', args);
      if (!workerInstalled('worker')) return EXIT.USAGE;
      const { workerProcessConfigFromEnv } = await import('../../workers/process-config');
      await (await import('../../workers/main')).runWorkerProcess(workerProcessConfigFromEnv(env));
      return EXIT.OK;
    },
  },
  {
    name: 'ingress',
    summary:
      'the webhook ingress HTTP server (configured from the environment, see `xborder ingress --help`)',
    run: async (args, env) => {
      if (wantsHelp(args)) return (await import('./service-help')).printIngressHelp();
      refuseArguments('ingress', args);
      const { ingressConfigFromEnv } = await import('../ingress/config');
      await (await import('../ingress/main')).runIngress(ingressConfigFromEnv(env));
      return new Promise<number>(() => undefined); // serves until a signal stops the process
    },
  },
  {
    name: 'codec-server',
    summary:
      'decodes and encodes payloads for the Temporal UI and CLI, with a bearer token (see docs/codec.md)',
    run: async (args, env) => {
      if (!wantsHelp(args)) refuseArguments('codec-server', args);
      return (await import('./codec-server')).runCodecServer(wantsHelp(args) ? ['--help'] : args, env);
    },
  },
  {
    name: 'pay',
    summary: 'start a payment from a JSON request; --watch follows it to its outcome',
    run: async (args, env) => (await import('./pay')).runPay(args, env),
  },
  {
    name: 'status',
    summary: 'show the state of a payment workflow (payment key or workflow ID)',
    run: async (args, env) => (await import('./status')).runStatus(args, env),
  },
  {
    name: 'cancel',
    summary: 'cancel a payment that has not been funded',
    run: async (args, env) => (await import('./status')).runCancel(args, env),
  },
  {
    name: 'events',
    summary:
      'outbound events of a payment (or --transfer a transfer): `events redeliver <key>` sends the undelivered ones now, `events state <key>`',
    run: async (args, env) => (await import('./events')).runEvents(args, env),
  },
  {
    name: 'stuck',
    summary: 'list stuck payments with age, phase, provider id and Temporal UI link (exit code 1 when any)',
    run: async (args, env) => (await import('./stuck')).runStuck(args, env),
  },
  {
    name: 'report',
    summary:
      'the reconciliation report: service, workflows and events compared, as CSV, JSON and HTML (exit code 1 on any mismatch)',
    run: async (args, env) => (await import('./report')).runReport(args, env),
  },
  {
    name: 'schedule',
    summary: 'the quote-refresh Schedule: create (or update) | describe | pause | unpause | trigger | delete',
    run: async (args, env) => (await import('./schedule')).runSchedule(args, env),
  },
  {
    name: 'deploy',
    summary:
      'Worker Deployment Versioning: status | set-current <buildId> | ramp <buildId> <percent> | stop-ramp',
    run: async (args, env) => (await import('./deploy')).runDeploy(args, env),
  },
];
