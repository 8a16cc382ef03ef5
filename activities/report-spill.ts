// Where the report's partitioned join keeps its partitions (src/report/partitioned-join.ts): in memory while the
// window is small, then, past SPILL_AFTER_LINES, in files of a private temporary directory (0700, files 0600: they
// hold payment keys, ids and amounts; SECURITY.md, "Files on disk"). The directory is removed when the report ends,
// whether it ends well or not, and on exit; with `removeOnSignal` (the CLI, which handles no signal itself) on
// Ctrl-C (SIGINT) or SIGTERM too, then ended by that signal. A worker does not ask for it: its own shutdown
// (workers/main.ts, `process.once`) lets the running report end and remove the directory, or the exit hook does.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { SpillStore } from '../src/report/partitioned-join';
import { ensurePrivateDir } from '../src/support/private-files';

/** Lines kept in memory before every file goes to disk (a few MB: a window of about 3,000 payments stays here). */
export const SPILL_AFTER_LINES = 10_000;
/** What a file buffers before it writes, and reads at a time. */
const CHUNK = 16 * 1024;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The directory was removed by a signal while the report ran: the process is ending; retrying here will not help. */
export class ReportSpillRemovedError extends Error {
  override readonly name = 'ReportSpillRemovedError';
  readonly type = 'REPORT_SPILL_REMOVED';
  readonly retryable = false;
}

export interface ReportSpillStore extends SpillStore {
  /** the temporary directory once the store went to disk; null while in memory */
  readonly dir: string | null;
  /** removes the directory and everything in it; safe to call twice */
  dispose(): void;
}

interface DiskFile {
  fd: number | null;
  pending: string;
}

export function createReportSpillStore(
  options: { spillAfterLines?: number; tmpRoot?: string; removeOnSignal?: boolean } = {},
): ReportSpillStore {
  const spillAfter = options.spillAfterLines ?? SPILL_AFTER_LINES;
  const memory = new Map<string, string[]>();
  let held = 0;
  let dir: string | null = null;
  const files = new Map<string, DiskFile>();
  const reading = new Set<number>();
  /** names that went to disk: one missing there was removed under the join, never "empty" */
  const onDisk = new Set<string>();
  /** the signal that removed the directory: the join cannot go on */
  let gone: NodeJS.Signals | null = null;
  const check = () => {
    if (gone)
      throw new ReportSpillRemovedError(`report join: its temporary directory was removed on ${gone}`);
  };

  const fileOf = (name: string): DiskFile => {
    let f = files.get(name);
    if (!f) {
      f = { fd: openSync(path.join(dir!, name), 'a', 0o600), pending: '' };
      files.set(name, f);
      onDisk.add(name);
    }
    return f;
  };
  const flush = (f: DiskFile) => {
    if (f.pending && f.fd !== null) writeSync(f.fd, f.pending);
    f.pending = '';
  };
  const close = (name: string) => {
    const f = files.get(name);
    if (!f) return;
    flush(f);
    if (f.fd !== null) closeSync(f.fd);
    f.fd = null;
    files.delete(name);
  };
  const removeAll = () => {
    for (const fd of reading) closeQuietly(fd);
    reading.clear();
    for (const f of files.values()) if (f.fd !== null) closeQuietly(f.fd);
    files.clear();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    removeAll();
    gone = signal;
    unlisten();
    // the signal's own default (the process ends by it), as if we had not listened
    process.kill(process.pid, signal);
  };
  const unlisten = () => {
    process.off('exit', removeAll);
    for (const s of SIGNALS) process.off(s, onSignal);
  };

  const toDisk = () => {
    dir = mkdtempSync(path.join(options.tmpRoot ?? os.tmpdir(), 'xborder-report-'));
    ensurePrivateDir(dir);
    process.on('exit', removeAll);
    if (options.removeOnSignal) for (const s of SIGNALS) process.on(s, onSignal);
    for (const [name, lines] of memory) {
      const f = fileOf(name);
      f.pending = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      flush(f);
    }
    memory.clear();
  };

  function* readLines(name: string): Generator<string> {
    close(name);
    let fd: number;
    try {
      fd = openSync(path.join(dir!, name), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !onDisk.has(name)) return;
      throw error;
    }
    reading.add(fd);
    try {
      const buffer = Buffer.alloc(CHUNK);
      const decoder = new StringDecoder('utf8');
      let rest = '';
      for (;;) {
        const n = readSync(fd, buffer, 0, CHUNK, null);
        if (n === 0) break;
        const parts = (rest + decoder.write(buffer.subarray(0, n))).split('\n');
        rest = parts.pop()!;
        yield* parts;
      }
      rest += decoder.end();
      if (rest) yield rest;
    } finally {
      reading.delete(fd);
      closeSync(fd);
    }
  }

  return {
    get dir() {
      return dir;
    },
    append(name, line) {
      check();
      if (dir === null) {
        let lines = memory.get(name);
        if (!lines) memory.set(name, (lines = []));
        lines.push(line);
        if (++held > spillAfter) toDisk();
        return;
      }
      const f = fileOf(name);
      f.pending += `${line}\n`;
      if (f.pending.length >= CHUNK) flush(f);
    },
    lines(name) {
      check();
      if (dir === null) return memory.get(name) ?? [];
      return readLines(name);
    },
    drop(name) {
      if (dir === null) {
        held -= memory.get(name)?.length ?? 0;
        memory.delete(name);
        return;
      }
      close(name);
      rmSync(path.join(dir, name), { force: true });
      onDisk.delete(name);
    },
    dispose() {
      removeAll();
      unlisten();
      dir = null;
      memory.clear();
      held = 0;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
