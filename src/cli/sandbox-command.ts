import { SandboxArgsError } from '../sandbox/args';
import { runSandboxMain } from '../sandbox/main';
import { UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

/** `xborder sandbox [options]`: the sandbox alone, until SIGINT/SIGTERM (docs/sandbox.md). */
export async function runSandboxCommand(args: string[], env: Environment): Promise<number> {
  try {
    await runSandboxMain(args, env);
  } catch (error) {
    // a mistake in the arguments is a usage error (exit code 2), as for every other command
    if (error instanceof SandboxArgsError) throw new UsageError(error.message);
    throw error;
  }
  if (args.includes('--help') || args.includes('-h')) return 0;
  return new Promise<number>(() => undefined); // serves until a signal stops the process
}
