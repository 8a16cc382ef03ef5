// Child-process helpers shared by `xborder dev`'s Temporal dev server (src/cli/dev-server.ts) and the test
// harnesses (test/cluster, test/chaos): a TCP listener check, waiting for one, and stopping a child for good.
// Children started `detached` lead their own process group, so a group kill reaches everything they started.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

export function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits for a TCP listener; `failed()` returning a message stops the wait at once (the process died). */
export async function waitUntilListening(
  host: string,
  port: number,
  timeoutMs: number,
  failed: () => string | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = failed();
    if (reason) throw new Error(reason);
    if (await isListening(host, port)) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Signals the child's whole process group (a `detached` child leads one); nothing when it is gone already. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone, or the child leads none (not detached)
  }
}

/** Resolves true once the child has exited, false after the timeout. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Stops a child for good: `signal` (a clean shutdown) to the child, and after `graceMs` without an exit SIGKILL
 * to it and to its process group. Resolves once it has exited (or 10 s after the SIGKILL).
 */
export async function stopChild(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  if (await waitForExit(child, graceMs)) return;
  child.kill('SIGKILL');
  killGroup(child, 'SIGKILL');
  await waitForExit(child, 10_000);
}
