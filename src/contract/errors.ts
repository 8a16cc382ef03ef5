import { z } from 'zod';
import { ContractParseError, issuesToViolations } from './violations';

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
/** One broken rule: `path` of the field, `rule` id, `message` saying what to do. */
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

export { SCHEMA_RULE, pathToString, ContractParseError } from './violations';

export function zodIssuesToViolations(error: z.ZodError, prefix = ''): Violation[] {
  return issuesToViolations(error.issues, prefix);
}

/** Parse or throw a ContractParseError whose message names every failing path. */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new ContractParseError(what, zodIssuesToViolations(result.error));
  return result.data;
}
