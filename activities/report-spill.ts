// Where the report's partitioned join keeps its partitions (src/report/partitioned-join.ts): in memory while the
// window is small, then, past SPILL_AFTER_LINES, in files of a private temporary directory (0700, files 0600: they
// hold payment keys, ids and amounts; SECURITY.md, "Files on disk"). The directory is removed when the report ends,
// whether it ends well or not, and on exit; with `removeOnSignal` (the CLI, which handles no signal itself) on
// Ctrl-C (SIGINT) or SIGTERM too, then ended by that signal. A worker does not ask for it: its own shutdown
// (workers/main.ts, `process.once`) lets the running report end and remove the directory, or the exit hook does.
import {
  closeSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
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
const DIR_PREFIX = 'xborder-report-';
/**
 * A folder of ours older than this was left by a report that was killed (SIGKILL, an OOM kill: no exit hook runs).
 * The report's activity times out after 30 minutes, so no live report's folder is this old.
 */
export const STALE_SPILL_AFTER_MS = 6 * 60 * 60 * 1000;

/** Removes the spill folders of killed reports under `root` (ours by name and owner, not a link, old enough). */
function removeStaleSpills(root: string, nowMs: number): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  for (const name of names) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    try {
      const st = lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      if (nowMs - st.mtimeMs > STALE_SPILL_AFTER_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to read: left as it is
    }
  }
}

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

/** The partition files of one directory: appended through a small buffer, read back line by line. */
class DiskPartitions {
  private readonly files = new Map<string, DiskFile>();
  private readonly reading = new Set<number>();
  /** names that went to disk: one missing there was removed under the join, never "empty" */
  private readonly onDisk = new Set<string>();

  constructor(readonly dir: string) {}

  append(name: string, text: string): void {
    const f = this.fileOf(name);
    f.pending += text;
    if (f.pending.length >= CHUNK) this.flush(f);
  }

  write(name: string, text: string): void {
    const f = this.fileOf(name);
    f.pending = text;
    this.flush(f);
  }

  *lines(name: string): Generator<string> {
    this.close(name);
    let fd: number;
    try {
      fd = openSync(path.join(this.dir, name), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !this.onDisk.has(name)) return;
      throw error;
    }
    this.reading.add(fd);
    try {
      yield* linesOf(fd);
    } finally {
      this.reading.delete(fd);
      closeSync(fd);
    }
  }

  drop(name: string): void {
    this.close(name);
    rmSync(path.join(this.dir, name), { force: true });
    this.onDisk.delete(name);
  }

  removeAll(): void {
    for (const fd of this.reading) closeQuietly(fd);
    this.reading.clear();
    for (const f of this.files.values()) if (f.fd !== null) closeQuietly(f.fd);
    this.files.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private fileOf(name: string): DiskFile {
    let f = this.files.get(name);
    if (!f) {
      f = { fd: openSync(path.join(this.dir, name), 'a', 0o600), pending: '' };
      this.files.set(name, f);
      this.onDisk.add(name);
    }
    return f;
  }

  private flush(f: DiskFile): void {
    if (f.pending && f.fd !== null) writeSync(f.fd, f.pending);
    f.pending = '';
  }

  private close(name: string): void {
    const f = this.files.get(name);
    if (!f) return;
    this.flush(f);
    if (f.fd !== null) closeSync(f.fd);
    f.fd = null;
    this.files.delete(name);
  }
}

function* linesOf(fd: number): Generator<string> {
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
}

export function createReportSpillStore(
  options: { spillAfterLines?: number; tmpRoot?: string; removeOnSignal?: boolean } = {},
): ReportSpillStore {
  const spillAfter = options.spillAfterLines ?? SPILL_AFTER_LINES;
  const memory = new Map<string, string[]>();
  let held = 0;
  let disk: DiskPartitions | null = null;
  /** the signal that removed the directory: the join cannot go on */
  let gone: NodeJS.Signals | null = null;
  const check = () => {
    if (gone)
      throw new ReportSpillRemovedError(`report join: its temporary directory was removed on ${gone}`);
  };
  const removeAll = () => disk?.removeAll();
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

  const toDisk = (): DiskPartitions => {
    const root = options.tmpRoot ?? os.tmpdir();
    removeStaleSpills(root, Date.now());
    const dir = mkdtempSync(path.join(root, DIR_PREFIX));
    ensurePrivateDir(dir);
    const d = new DiskPartitions(dir);
    disk = d;
    process.on('exit', removeAll);
    if (options.removeOnSignal) for (const s of SIGNALS) process.on(s, onSignal);
    for (const [name, lines] of memory) d.write(name, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    memory.clear();
    return d;
  };

  return {
    get dir() {
      return disk?.dir ?? null;
    },
    append(name, line) {
      check();
      if (disk === null) {
        let lines = memory.get(name);
        if (!lines) memory.set(name, (lines = []));
        lines.push(line);
        if (++held > spillAfter) toDisk();
        return;
      }
      disk.append(name, `${line}\n`);
    },
    lines(name) {
      check();
      if (disk === null) return memory.get(name) ?? [];
      return disk.lines(name);
    },
    drop(name) {
      if (disk === null) {
        held -= memory.get(name)?.length ?? 0;
        memory.delete(name);
        return;
      }
      disk.drop(name);
    },
    dispose() {
      removeAll();
      unlisten();
      disk = null;
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
