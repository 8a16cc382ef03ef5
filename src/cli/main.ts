// The `xborder` command: one entry, one module per subcommand (loaded on demand, so `xborder status`
// does not pay for the worker's bundler).
import { commands, type Command } from './commands';

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: xborder <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`xborder <command> --help\` for its options.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`xborder: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`xborder: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
