// The `xborder` command's entry (bin/xborder.js loads it): runs the command its argv names (cli.ts).
// Exit codes (docs/operations.md, "The `xborder` command"): 0 ok, 1 not COMPLETED / stuck found / failed, 2 usage, 3 cannot connect.
import { main } from './cli';
import { EXIT } from './exit-codes';

// The CLI's entry: the one read of its environment, handed to the command (docs/architecture.md, "Configuration").
main(process.argv.slice(2), process.env).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`xborder: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT.NOT_OK;
  },
);
