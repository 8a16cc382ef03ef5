// Files that hold a secret or personal data (SECURITY.md, "Files on disk"): written 0600, in a directory this user
// owns with mode 0700, so another account on the machine reads none of them. An existing directory or file is
// checked before use: owned by another user → refused with a clear message (it is not ours to trust or to change);
// ours but open to the group or others → narrowed (chmod) and said so, since an older xborder (or a umask of 022)
// left it that way and a refusal would only make people widen it by hand.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** A data directory or file another user owns: not used. Not retryable: fix the owner or pick another path. */
export class PrivatePathError extends Error {
  override readonly name = 'PrivatePathError';
  readonly type = 'PRIVATE_PATH_NOT_OWNED';
  readonly retryable = false;
}

const GROUP_OR_OTHER = 0o077;
const uid = (): number | undefined => process.getuid?.();

function narrow(target: string, kind: 'directory' | 'file', mode: number, log: (line: string) => void): void {
  const stat = statSync(target);
  const me = uid();
  if (me !== undefined && stat.uid !== me) {
    throw new PrivatePathError(
      `${target} is owned by uid ${stat.uid}, not by this user (uid ${me}): xborder keeps keys, secrets and personal data there and uses only a ${kind} it owns. ` +
        `Use another path (--data-dir) or \`chown\` it to this user.`,
    );
  }
  if ((stat.mode & GROUP_OR_OTHER) !== 0) {
    chmodSync(target, mode);
    log(
      `${target}: ${kind} mode was ${(stat.mode & 0o777).toString(8)}, readable by other users; set to ${mode.toString(8)} (it holds secrets or personal data)`,
    );
  }
}

/** Creates `dir` (and parents) 0700, or checks an existing one: ours, and narrowed to 0700 when it was wider. */
export function ensurePrivateDir(
  dir: string,
  log: (line: string) => void = (line) => console.warn(`xborder: ${line}`),
): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  narrow(dir, 'directory', 0o700, log);
}

/** Checks an existing file: ours, and narrowed to 0600 when it was wider. */
export function checkPrivateFile(
  file: string,
  log: (line: string) => void = (line) => console.warn(`xborder: ${line}`),
): void {
  narrow(file, 'file', 0o600, log);
}

/**
 * Opens a file that this call creates, for writing, mode 0600: never one that exists, and never through a symlink
 * (O_CREAT|O_EXCL|O_NOFOLLOW; O_EXCL alone already fails on a link, O_NOFOLLOW says it on every platform). A symlink
 * planted at the name would otherwise send the secret, and the mode, wherever it points. fchmod on the descriptor
 * settles the mode whatever the umask.
 */
export function openNewPrivateFile(file: string): number {
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  fchmodSync(fd, 0o600);
  return fd;
}

/**
 * Writes `contents` to `file` atomically with mode 0600: a new temporary file (0600 from its creation, so there is no
 * moment it is readable by others) renamed over the target. The directory is created 0700 when missing. The
 * temporary name is random (a pid is predictable, and the same in every start of a container) and opened by
 * openNewPrivateFile; rename replaces a symlink at `file` itself rather than following it.
 */
export function writePrivateFile(file: string, contents: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openNewPrivateFile(tmp);
  try {
    try {
      writeSync(fd, typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or gone: nothing of ours is left behind
    }
    throw error;
  }
}
