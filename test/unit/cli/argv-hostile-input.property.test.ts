// The CLI's arguments, property-based (fast-check) and bounded: random argv gives a clear usage error with exit
// code 2 (or 0 for --help/--version), never a stack trace, never a server started or Temporal dialled. Every
// generated argv for a known command carries an unknown flag, so nothing may get past argument parsing. Count: 500.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { main } from '../../../src/cli/cli';

const STACK_LINE = /\n\s+at .+(?:\(|\s)\S+:\d+:\d+\)?/;

const COMMANDS = [
  'dev',
  'sandbox',
  'worker',
  'ingress',
  'codec-server',
  'pay',
  'status',
  'cancel',
  'stuck',
  'report',
  'schedule',
  'deploy',
];
const word = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '--',
    '-',
    '-x',
    '--key',
    '--request',
    '--watch',
    '--json',
    '--address',
    '--namespace',
    '=',
    '--port=abc',
    'create',
    'ramp',
    '101',
    '-1',
    'NaN',
    '__proto__',
    '\u0000',
    '--temporal-port',
    '99999',
  ),
);
const unknownFlag = fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/).map((s) => `--zz-${s}`);

it('answers 500 random argv with exit code 2 and a usage message, or 0 for help, and never a stack trace', async () => {
  const errors: string[] = [];
  const logs: string[] = [];
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void errors.push(a.map(String).join(' ')));
  const log = jest
    .spyOn(console, 'log')
    .mockImplementation((...a: unknown[]) => void logs.push(a.map(String).join(' ')));
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          // an unknown command
          fc
            .tuple(
              word.filter(
                (w) =>
                  !COMMANDS.includes(w) &&
                  !['--version', '-V', 'version', '--help', '-h', 'help', ''].includes(w),
              ),
              fc.array(word, { maxLength: 4 }),
            )
            .map(([c, rest]) => [c, ...rest]),
          // a known command with an unknown flag somewhere among random words (before any `--`)
          fc
            .tuple(
              fc.constantFrom(...COMMANDS),
              fc.array(word, { maxLength: 4 }),
              unknownFlag,
              fc.array(word, { maxLength: 3 }),
            )
            .map(([c, before, flag, after]) => {
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
          else
            expect({ argv, code, stderr: code === 2 ? '' : stderr }).toEqual({ argv, code: 2, stderr: '' });
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

/**
 * Valid flags with hostile values (not unknown flags): every argv below is a real command with flags it takes, and
 * at least one value the command must refuse before it connects or listens — a port that is not a port, a number that
 * is not one, a request file that is not a request, a key that holds personal data, a secret that is published or
 * weak. The oracle is the list of hostile values itself: each is refused by construction, so a case where the command
 * went further would dial Temporal or start a server (the test's empty environment points nowhere it could use).
 * Exit code 2, a usage message naming the flag, no stack trace, and no secret value echoed. Count: 600.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-argv-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const VALID_REQUEST = file(
  'valid.json',
  JSON.stringify({
    customerId: 'cus_1',
    source: {
      currencyCode: 'USDC',
      amount: 25,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
    reference: 'r',
    paymentReason: 'PERSONAL_TRANSFERS',
  }),
);
const HOSTILE_REQUESTS = [
  file('not-json.json', '{"source":'),
  file('array.json', '[1,2]'),
  file('string.json', '"x"'),
  file('empty.json', ''),
  file('wrong.json', '{"source":{"amount":"25"}}'),
  file('proto.json', '{"__proto__":{"x":1}}'),
  dir,
  path.join(dir, 'missing.json'),
  '/dev/null',
  // not '-': that is `--request -`, the request read from standard input, which is valid, and a jest worker's stdin
  // is a pipe that never ends (readFileSync(0) would wait for ever)
  '--json',
];
/** Not a number ≥ 0 (so neither a fee, a drift, a duration nor a port). */
const notANumber = fc.constantFrom(
  'abc',
  'NaN',
  'Infinity',
  '-1',
  '',
  ' ',
  '1,5',
  '١٢',
  '--',
  '1 2',
  '0x',
  '1e',
  '∞',
  '\u0000',
  '5%',
);
const notAPort = fc.oneof(
  notANumber,
  fc.constantFrom('65536', '99999', '70000', '1.5', '80abc', '-80', '+80 x'),
);
const personalKey = fc.constantFrom(
  'jane.doe@example.com',
  '+14155550100',
  'order-(11) 99999-9999',
  'DE89370400440532013000',
  '123.456.789-09',
);
const opaque = fc.stringMatching(/^[a-z]{2,8}-[a-z]{2,8}$/);
const weakSecret = fc.constantFrom(
  'whsec_YQ==',
  'whsec_change-me',
  `whsec_${'A'.repeat(32)}`,
  'whsec_MTIzNA==',
);
const weakToken = fc.constantFrom(
  'short',
  'x'.repeat(40),
  'change-me-change-me-change-me',
  'abcdabcdabcdabcdabcdabcd',
);
const DEV_PORTS = ['--temporal-port', '--ui-port', '--sandbox-port', '--ingress-port', '--codec-port'];

type Case = { argv: string[]; flag: string; secret?: string };
const hostileCase: fc.Arbitrary<Case> = fc.oneof(
  fc
    .tuple(opaque, fc.constantFrom(...HOSTILE_REQUESTS))
    .map(([key, request]) => ({ argv: ['pay', '--key', key, `--request=${request}`], flag: '--request' })),
  fc.tuple(opaque, notANumber).map(([key, fee]) => ({
    argv: ['pay', '--key', key, '--request', VALID_REQUEST, `--max-fee=${fee}`],
    flag: '--max-fee',
  })),
  fc.tuple(opaque, notANumber).map(([key, drift]) => ({
    argv: ['pay', '--key', key, '--request', VALID_REQUEST, `--max-drift=${drift}`, '--json'],
    flag: '--max-drift',
  })),
  personalKey.map((key) => ({ argv: ['pay', '--key', key, '--request', VALID_REQUEST], flag: '--key' })),
  fc
    .oneof(notANumber, fc.constant('0'))
    .map((h) => ({ argv: ['stuck', `--in-progress-hours=${h}`, '--json'], flag: '--in-progress-hours' })),
  fc
    .tuple(
      fc.constantFrom(...DEV_PORTS),
      fc.oneof(notAPort, fc.constant('0')),
      fc.constantFrom([], ['--no-demo'], ['--once']),
    )
    .map(([flag, value, rest]) => ({ argv: ['dev', ...rest, `${flag}=${value}`], flag })),
  // 0 is a port to the sandbox (any free one): not drawn
  notAPort.map((p) => ({ argv: ['sandbox', `--port=${p}`, '--quiet'], flag: '--port' })),
  weakSecret.map((s) => ({
    argv: ['sandbox', '--port', '0', '--webhook-secret', s],
    flag: '--webhook-secret',
    secret: s,
  })),
  weakToken.map((t) => ({
    argv: ['sandbox', '--port', '0', '--control-token', t],
    flag: '--control-token',
    secret: t,
  })),
  fc
    .constantFrom('yesterday', '2026-13-45', '', 'now', '1e9')
    .map((a) => ({ argv: ['sandbox', '--port', '0', `--as-of=${a}`], flag: '--as-of' })),
);

it('answers 600 argv of valid flags with hostile values with exit code 2 naming the flag, before connecting or listening', async () => {
  const errors: string[] = [];
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void errors.push(a.map(String).join(' ')));
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const seen = new Set<string>();
  try {
    await fc.assert(
      fc.asyncProperty(hostileCase, async ({ argv, flag, secret }) => {
        errors.length = 0;
        // a command that went past its arguments (listening, dialling) does not answer in time: failed, not hung
        let timer: NodeJS.Timeout | undefined;
        const code = await Promise.race([
          main(argv, {}),
          new Promise<string>(
            (r) =>
              (timer = setTimeout(() => r('still running after 10 s: it went past its arguments'), 10_000)),
          ),
        ]);
        clearTimeout(timer);
        const stderr = errors.join('\n');
        expect({ argv, code }).toEqual({ argv, code: 2 });
        expect(stderr).toMatch(/^xborder/);
        expect(stderr).toContain(flag.replace(/^--/, ''));
        expect(stderr).not.toMatch(STACK_LINE);
        if (secret && secret.length >= 6) expect(stderr).not.toContain(secret);
        seen.add(argv[0]!);
      }),
      { numRuns: 600 },
    );
  } finally {
    error.mockRestore();
    log.mockRestore();
  }
  expect([...seen].sort()).toEqual(['dev', 'pay', 'sandbox', 'stuck']);
}, 180_000);
