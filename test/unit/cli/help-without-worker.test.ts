// A client-only install (README, "Using xborder from a backend service": @temporalio/worker is an optional peer
// dependency) still answers `xborder dev --help`: the help is printed without loading the worker. Before, the
// help path imported src/cli/dev.ts, whose first lines import @temporalio/worker, and the command died with
// "Cannot find module '@temporalio/worker'" (exit code 1), found on a backend team's walk from a fresh clone.
import os from 'node:os';
import { cliEnvironment, runXborder } from '../../support/cli-in-process';

jest.mock('@temporalio/worker', () => {
  throw new Error("Cannot find module '@temporalio/worker'");
});

it('xborder dev --help prints the usage with @temporalio/worker missing (exit code 0)', async () => {
  const r = await runXborder(['dev', '--help'], cliEnvironment(os.tmpdir(), {}));
  expect(r.err).not.toContain('Cannot find module');
  expect(r.out).toContain('Usage: xborder dev [options]');
  expect(r.out).toContain('XBORDER_EVENTS_URL');
  expect(r.code).toBe(0);
});
