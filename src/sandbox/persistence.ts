import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SandboxData } from './state';

/** Reads the data file; null when it does not exist. A corrupt file is an error (never silently dropped). */
export function loadData(file: string): SandboxData | null {
  if (!existsSync(file)) return null;
  const data = JSON.parse(readFileSync(file, 'utf8')) as SandboxData;
  if (data.version !== 1) throw new Error(`${file}: unsupported sandbox data version ${String(data.version)}`);
  return data;
}

/** Atomic write: a temporary file renamed over the target, so a crash never leaves half a file. */
export function saveData(file: string, data: SandboxData): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(data));
  renameSync(tmp, file);
}

/** Coalesces saves: at most one write per `delayMs`, and `flush()` writes now. */
export class DebouncedSaver {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string | undefined,
    private readonly snapshot: () => SandboxData,
    private readonly delayMs = 50,
  ) {}

  saveSoon(): void {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.file) saveData(this.file, this.snapshot());
  }
}
