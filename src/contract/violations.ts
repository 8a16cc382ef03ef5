// Violations from schema issues, zod-free: used by the zod schemas (errors.ts) and by contract modules that
// workflows load (docs/performance.md: no zod in the workflow bundle).
/**
 * One broken rule: where, which rule, and what to do. errors.ts's `Violation` (the zod shape of the service's
 * error body) is this shape plus any other field; it is written here too so that this zod-free module does not
 * import errors.ts, which imports it.
 */
export type SchemaViolation = { path: string; rule: string; message: string };

/** Rule id used for violations found by a schema (type, format, required). */
export const SCHEMA_RULE = 'SCHEMA';

export function pathToString(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** A zod issue: a path and zod's English message. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export function issuesToViolations(issues: readonly SchemaIssue[], prefix = ''): SchemaViolation[] {
  return issues.map((issue) => {
    const path = [prefix, pathToString(issue.path)].filter((p) => p !== '').join('.');
    // an invalid_type issue whose value was absent ("Invalid input: expected string, received undefined")
    const missing =
      issue.message.startsWith('Invalid input: expected ') && issue.message.endsWith('received undefined');
    return {
      path,
      rule: SCHEMA_RULE,
      message: missing ? `${path} is required: add it` : `${path}: ${issue.message}`,
    };
  });
}

/** A payload that does not match the contract. Not retryable: sending it again gives the same result. */
export class ContractParseError extends Error {
  readonly type = 'CONTRACT_PARSE_ERROR';
  readonly retryable = false;
  constructor(
    readonly what: string,
    readonly violations: SchemaViolation[],
  ) {
    super(`${what} does not match the contract: ${violations.map((v) => v.message).join('; ')}`);
    this.name = 'ContractParseError';
  }
}
