export interface Command {
  name: string;
  summary: string;
  /** Resolves with the process exit code. Long-running commands resolve when they stop. */
  run(args: string[]): Promise<number>;
}

export const commands: Command[] = [
  {
    name: 'dev',
    summary: 'the whole local stack: Temporal dev server, sandbox, ingress, worker, and a demo transfer',
    run: async (args) => (await import('./dev')).runDev(args),
  },
  {
    name: 'sandbox',
    summary: 'the emulator of the payments service (see docs/sandbox.md)',
    run: async (args) => (await import('./sandbox-command')).runSandboxCommand(args),
  },
  {
    name: 'worker',
    summary: 'the Temporal worker (configured from the environment, see workers/config.ts)',
    run: async () => {
      await (await import('../../workers/main')).runWorkerFromEnv();
      return 0;
    },
  },
  {
    name: 'ingress',
    summary: 'the webhook ingress HTTP server (configured from the environment, see src/ingress/config.ts)',
    run: async () => {
      await (await import('../ingress/main')).runIngressFromEnv();
      return new Promise<number>(() => undefined); // serves until a signal stops the process
    },
  },
  {
    name: 'codec-server',
    summary: 'decodes and encodes payloads for the Temporal UI and CLI, with a bearer token (see docs/codec.md)',
    run: async (args) => (await import('./codec-server')).runCodecServer(args),
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
    name: 'stuck',
    summary: 'list stuck payments with age, phase, provider id and Temporal UI link',
    run: async (args) => (await import('./stuck')).runStuck(args),
  },
  {
    name: 'schedule',
    summary: 'the quote-refresh Schedule: create (or update) | describe | pause | unpause | trigger | delete',
    run: async (args) => (await import('./schedule')).runSchedule(args),
  },
];
