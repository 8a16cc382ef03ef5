// The exit codes of `xborder` (docs/operations.md, "The `xborder` command"): scripts and alerts rely on them.
export const EXIT = {
  /** the command did what was asked (a payment started or COMPLETED, nothing stuck, …) */
  OK: 0,
  /** the payment's outcome was not COMPLETED (or it was refused), stuck payments were found, or the command failed */
  NOT_OK: 1,
  /** usage: bad flags, a bad request file or request, bad connection settings; usage or the error on stderr */
  USAGE: 2,
  /** cannot connect to Temporal; the message names the address tried */
  CANNOT_CONNECT: 3,
} as const;

/** A mistake of the caller: exit code 2, the message (and the command's usage) on stderr. */
export class UsageError extends Error {
  readonly type = 'UsageError';
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Temporal did not answer at the address: exit code 3. */
export class CannotConnectError extends Error {
  readonly type = 'CannotConnectError';
  constructor(
    readonly address: string,
    readonly namespace: string,
    cause: unknown,
  ) {
    super(
      `cannot connect to Temporal at ${address} (namespace ${namespace}): ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'CannotConnectError';
  }
}
