import { runSandboxMain } from '../sandbox/main';

/** `xborder sandbox [options]`: the sandbox alone, until SIGINT/SIGTERM (docs/sandbox.md). */
export async function runSandboxCommand(args: string[]): Promise<number> {
  await runSandboxMain(args, process.env);
  if (args.includes('--help') || args.includes('-h')) return 0;
  return new Promise<number>(() => undefined); // serves until a signal stops the process
}
