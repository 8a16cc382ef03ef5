import { existsSync, readFileSync } from 'node:fs';
import { writePrivateFile } from '../support/private-files';
import { type SandboxData } from './state';

/** Reads the data file; null when it does not exist. A corrupt file is an error (never silently dropped). */
export function loadData(file: string): SandboxData | null {
  if (!existsSync(file)) return null;
  const data = JSON.parse(readFileSync(file, 'utf8')) as SandboxData;
  if (data.version !== 1)
    throw new Error(`${file}: unsupported sandbox data version ${String(data.version)}`);
  return data;
}

/**
 * Atomic write: a temporary file renamed over the target, so a crash never leaves half a file. Mode 0600 (its
 * directory 0700 when created here): the state holds the API keys, the webhook secret and the customers' personal data.
 */
export function saveData(file: string, data: SandboxData): void {
  writePrivateFile(file, JSON.stringify(data));
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
