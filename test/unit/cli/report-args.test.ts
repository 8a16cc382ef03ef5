// `xborder report`: its arguments are checked before anything connects (exit code 2 with the usage).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli/cli';

async function run(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  const err: string[] = [];
  const out: string[] = [];
  const e = jest
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.map(String).join(' ')));
  const l = jest
    .spyOn(console, 'log')
    .mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' ')));
  try {
    return { code: await main(argv, {}), err: err.join('\n'), out: out.join('\n') };
  } finally {
    e.mockRestore();
    l.mockRestore();
  }
}

it('needs --from and --to, as days or instants with an offset, the end after the start', async () => {
  await expect(run(['report'])).resolves.toEqual(
    expect.objectContaining({ code: 2, err: expect.stringContaining('--from and --to are required') }),
  );
  await expect(run(['report', '--from', '2026-11-21', '--to', '2026-11-20'])).resolves.toEqual(
    expect.objectContaining({ code: 2, err: expect.stringContaining('must come after') }),
  );
  await expect(run(['report', '--from', 'last week', '--to', '2026-11-20'])).resolves.toEqual(
    expect.objectContaining({ code: 2, err: expect.stringContaining('YYYY-MM-DD') }),
  );
});

it('refuses to start without a service key, naming the variables (the window was fine)', async () => {
  // from a folder with no .data/sandbox-api-key above it (a checkout after `npm start` has one)
  const cwd = process.cwd();
  process.chdir(mkdtempSync(path.join(os.tmpdir(), 'xborder-report-args-')));
  try {
    const result = await run(['report', '--from', '2026-11-20', '--to', '2026-11-20']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('XBORDER_PROVIDER_API_KEY');
  } finally {
    process.chdir(cwd);
  }
});

it('prints its usage with --help, exit code 0', async () => {
  const result = await run(['report', '--help']);
  expect(result.code).toBe(0);
  expect(result.out).toContain('Exit codes: 0 everything matches, 1 mismatches found');
});
