// The CLI's arguments, property-based (fast-check) and bounded: random argv gives a clear usage error with exit
// code 2 (or 0 for --help/--version), never a stack trace, never a server started or Temporal dialled. Every
// generated argv for a known command carries an unknown flag, so nothing may get past argument parsing. Count: 500.
import fc from 'fast-check';
import { main } from '../../../src/cli/cli';

const STACK_LINE = /\n\s+at .+(?:\(|\s)\S+:\d+:\d+\)?/;

const COMMANDS = ['dev', 'sandbox', 'worker', 'ingress', 'codec-server', 'pay', 'status', 'cancel', 'stuck', 'report', 'schedule', 'deploy'];
const word = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('--', '-', '-x', '--key', '--request', '--watch', '--json', '--address', '--namespace', '=', '--port=abc', 'create', 'ramp', '101', '-1', 'NaN', '__proto__', '\u0000', '--temporal-port', '99999'),
);
const unknownFlag = fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/).map((s) => `--zz-${s}`);

it('answers 500 random argv with exit code 2 and a usage message, or 0 for help, and never a stack trace', async () => {
  const errors: string[] = [];
  const logs: string[] = [];
  const error = jest.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.map(String).join(' ')));
  const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void logs.push(a.map(String).join(' ')));
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          // an unknown command
          fc.tuple(word.filter((w) => !COMMANDS.includes(w) && !['--version', '-V', 'version', '--help', '-h', 'help', ''].includes(w)), fc.array(word, { maxLength: 4 })).map(([c, rest]) => [c, ...rest]),
          // a known command with an unknown flag somewhere among random words (before any `--`)
          fc.tuple(fc.constantFrom(...COMMANDS), fc.array(word, { maxLength: 4 }), unknownFlag, fc.array(word, { maxLength: 3 })).map(([c, before, flag, after]) => {
            const cut = before.indexOf('--');
            return [c, ...(cut < 0 ? before : before.slice(0, cut)), flag, ...after];
          }),
        ),
        async (argv) => {
          errors.length = 0;
          const code = await main(argv, {}); // an empty environment: nothing of the machine's (TEMPORAL_ADDRESS …) helps
          const stderr = errors.join('\n');
          const askedForHelp = argv.slice(1).some((a) => a === '--help' || a === '-h');
          if (askedForHelp) expect([0, 2]).toContain(code);
          else expect({ argv, code, stderr: code === 2 ? "" : stderr }).toEqual({ argv, code: 2, stderr: "" });
          if (code === 2) expect(stderr).toMatch(/^xborder/);
          expect(stderr).not.toMatch(STACK_LINE);
        },
      ),
      { numRuns: 500 },
    );
  } finally {
    error.mockRestore();
    log.mockRestore();
  }
}, 120_000);
