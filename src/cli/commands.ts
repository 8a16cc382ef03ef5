import { EXIT, UsageError } from './exit-codes';

export interface Command {
  name: string;
  summary: string;
  /** Resolves with the process exit code. Long-running commands resolve when they stop. */
  run(args: string[]): Promise<number>;
}

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/**
 * The services configured from the environment take no arguments: one given is a mistake (a flag meant for
 * another command, a typo), answered as a usage error rather than ignored by a server that then starts anyway.
 */
function refuseArguments(command: string, args: string[]): void {
  if (args.length > 0) {
    throw new UsageError(`takes no arguments (configured from the environment; see \`xborder ${command} --help\`), got "${args.join(' ')}"`);
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
    run: async (args) =>
      !wantsHelp(args) && !workerInstalled('dev') ? EXIT.USAGE : (await import('./dev')).runDev(args),
  },
  {
    name: 'sandbox',
    summary: 'the emulator of the payments service (see docs/sandbox.md)',
    run: async (args) => (await import('./sandbox-command')).runSandboxCommand(args),
  },
  {
    name: 'worker',
    summary: 'the Temporal worker (configured from the environment, see `xborder worker --help`)',
    run: async (args) => {
      if (wantsHelp(args)) return (await import('./service-help')).printWorkerHelp();
      refuseArguments('worker', args);
      if (!workerInstalled('worker')) return EXIT.USAGE;
      await (await import('../../workers/main')).runWorkerFromEnv();
      return EXIT.OK;
    },
  },
  {
    name: 'ingress',
    summary:
      'the webhook ingress HTTP server (configured from the environment, see `xborder ingress --help`)',
    run: async (args) => {
      if (wantsHelp(args)) return (await import('./service-help')).printIngressHelp();
      refuseArguments('ingress', args);
      await (await import('../ingress/main')).runIngressFromEnv();
      return new Promise<number>(() => undefined); // serves until a signal stops the process
    },
  },
  {
    name: 'codec-server',
    summary: 'decodes and encodes payloads for the Temporal UI and CLI, with a bearer token (see docs/codec.md)',
    run: async (args) => {
      if (!wantsHelp(args)) refuseArguments('codec-server', args);
      return (await import('./codec-server')).runCodecServer(wantsHelp(args) ? ['--help'] : args);
    },
  },
  {
    name: 'pay',
    summary: 'start a payment from a JSON request; --watch follows it to its outcome',
    run: async (args) => (await import('./pay')).runPay(args),
  },
  {
    name: 'status',
    summary: 'show the state of a payment workflow (payment key or workflow ID)',
    run: async (args) => (await import('./status')).runStatus(args),
  },
  {
    name: 'cancel',
    summary: 'cancel a payment that has not been funded',
    run: async (args) => (await import('./status')).runCancel(args),
  },
  {
    name: 'events',
    summary: 'outbound events of a payment: `events redeliver <paymentKey>` sends the undelivered ones now, `events state <paymentKey>`',
    run: async (args) => (await import('./events')).runEvents(args),
  },
  {
    name: 'stuck',
    summary: 'list stuck payments with age, phase, provider id and Temporal UI link (exit code 1 when any)',
    run: async (args) => (await import('./stuck')).runStuck(args),
  },
  {
    name: 'schedule',
    summary: 'the quote-refresh Schedule: create (or update) | describe | pause | unpause | trigger | delete',
    run: async (args) => (await import('./schedule')).runSchedule(args),
  },
  {
    name: 'deploy',
    summary: 'Worker Deployment Versioning: status | set-current <buildId> | ramp <buildId> <percent> | stop-ramp',
    run: async (args) => (await import('./deploy')).runDeploy(args),
  },
];
