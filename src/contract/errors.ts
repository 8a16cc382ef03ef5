import { z } from 'zod';

// spec: Errors 4 — "the body shape of errors in general: not shown". Our wire decision
// (docs/spec-gaps.md, Wire decisions): one shape for every error, with every violation in `fields`.

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'ENDPOINT_REMOVED',
  'METHOD_NOT_ALLOWED',
  'INSUFFICIENT_FUNDS',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One broken rule: where, which rule (a DATED_RULES id or a schema rule), and what to do. */
export const ViolationSchema = z.looseObject({
  path: z.string(),
  rule: z.string(),
  message: z.string(),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const ErrorBodySchema = z.looseObject({
  error: z.looseObject({
    // A string, not the enum: an unknown code from the real service must still parse.
    code: z.string(),
    message: z.string(),
    requestId: z.string(),
    fields: z.array(ViolationSchema),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Rule id used for violations found by a zod schema (type, format, required). */
export const SCHEMA_RULE = 'SCHEMA';

export function pathToString(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

export function zodIssuesToViolations(error: z.ZodError, prefix = ''): Violation[] {
  return error.issues.map((issue) => {
    const path = [prefix, pathToString(issue.path)].filter((p) => p !== '').join('.');
    const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
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
    readonly violations: Violation[],
  ) {
    super(`${what} does not match the contract: ${violations.map((v) => v.message).join('; ')}`);
    this.name = 'ContractParseError';
  }
}

/** Parse or throw a ContractParseError whose message names every failing path. */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new ContractParseError(what, zodIssuesToViolations(result.error));
  return result.data;
}
