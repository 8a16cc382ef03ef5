// The `xborder` command as a function: argv and the environment in, the exit code out (main.ts is the process's
// entry). One module per subcommand (loaded on demand, so `xborder status` does not pay for the worker's bundler,
// and a client-only install never loads @temporalio/worker). Tests call it in-process: a spawned CLI costs a
// TypeScript loader start per case (test/unit/cli/cli-contract.test.ts keeps one spawned case for the entry).
// Exit codes (docs/operations.md, "The `xborder` command"): 0 ok, 1 not COMPLETED / stuck found / report mismatch / failed, 2 usage, 3 cannot connect.
import { commands, type Command } from './commands';
import { CannotConnectError, EXIT, UsageError } from './exit-codes';
import { packageVersion } from '../support/package-root';
import type { Environment } from '../support/environment';

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: xborder <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `xborder <command> --help` for its options; `xborder --version` for the version.',
    'Exit codes: 0 ok, 1 the payment did not complete / stuck payments found / a report mismatch / the command failed, 2 usage, 3 cannot connect to Temporal.',
  ].join('\n');
}

export async function main(argv: string[], env: Environment): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(packageVersion());
    return EXIT.OK;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return EXIT.OK;
  }
  if (!name) {
    console.error(usage());
    return EXIT.USAGE;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`xborder: unknown command "${name}"\n\n${usage()}`);
    return EXIT.USAGE;
  }
  try {
    return await command.run(rest, env);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`xborder ${name}: ${error.message}${error.usage ? `\n\n${error.usage}` : ''}`);
      return EXIT.USAGE;
    }
    if (isConfigurationMistake(error)) {
      console.error(`xborder ${name}: ${error.message}`);
      return EXIT.USAGE;
    }
    if (error instanceof CannotConnectError) {
      console.error(`xborder ${name}: ${error.message}`);
      return EXIT.CANNOT_CONNECT;
    }
    console.error(`xborder ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.NOT_OK;
  }
}

/**
 * A process entry's configuration refused (an entry reads its environment at start: workers/process-config.ts,
 * workers/events-config.ts, the known-secret checks, the Temporal settings): a caller's mistake, exit 2 like a bad
 * flag. By name, so this module loads none of the entries.
 */
const CONFIGURATION_ERRORS = new Set([
  'ConfigurationError',
  'EventsConfigError',
  'KnownSecretError',
  'TemporalConfigError',
]);
function isConfigurationMistake(error: unknown): error is Error {
  return error instanceof Error && CONFIGURATION_ERRORS.has(error.name);
}
