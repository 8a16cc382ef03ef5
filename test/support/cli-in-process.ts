// Runs `xborder <args>` in the test's own process (src/cli/cli.ts `main`, what bin/xborder.js runs), with what a
// spawned CLI would have printed on stdout and stderr. A spawned CLI costs a process and the TypeScript loader per
// case (seconds of CPU each); the spawned entry itself is covered once (test/unit/cli/cli-contract.test.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { format } from 'node:util';
import { main } from '../../src/cli/cli';

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliOptions {
  /** the working directory the command runs in (it looks for a dev checkout's .data/ from there) */
  cwd?: string;
  /** leave the XBORDER_CODEC* variables of the test's environment out */
  withoutKeys?: boolean;
}

export const XBORDER_BIN = path.resolve(__dirname, '..', '..', 'bin', 'xborder.js');

/**
 * The environment a CLI run sees: the test's own without TEMPORAL_* (no setting of the machine leaks in), HOME and
 * XDG_CONFIG_HOME at `home` (no temporal.toml found by accident), then `env`.
 */
export function cliEnvironment(
  home: string,
  env: NodeJS.ProcessEnv,
  options: CliOptions = {},
): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('TEMPORAL_') && !(options.withoutKeys && k.startsWith('XBORDER_CODEC')),
    ),
  );
  return { ...clean, HOME: home, XDG_CONFIG_HOME: home, ...env };
}

/** `xborder <args>` in-process: the exit code main() resolves with, and what it printed. */
export async function runXborder(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: CliOptions = {},
): Promise<CliRun> {
  let out = '';
  let err = '';
  const toOut = (...a: unknown[]) => void (out += `${format(...a)}\n`);
  const toErr = (...a: unknown[]) => void (err += `${format(...a)}\n`);
  const spies = [
    jest.spyOn(console, 'log').mockImplementation(toOut),
    jest.spyOn(console, 'info').mockImplementation(toOut),
    jest.spyOn(console, 'error').mockImplementation(toErr),
    jest.spyOn(console, 'warn').mockImplementation(toErr),
    jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true)),
    jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true)),
  ];
  const cwd = process.cwd();
  try {
    if (options.cwd) process.chdir(options.cwd);
    const code = await main(args, env);
    return { code, out, err };
  } finally {
    process.chdir(cwd);
    for (const spy of spies) spy.mockRestore();
  }
}

/** `xborder <args>` as a process (bin/xborder.js): for the entry itself (the exit code it sets, its streams). */
export function spawnXborder(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn(process.execPath, [XBORDER_BIN, ...args], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}
