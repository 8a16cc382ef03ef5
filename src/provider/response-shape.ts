// Turns "the answer does not fit the contract" into a ResponseShapeError naming every offending path.
import { z } from 'zod';
import { type FieldIssue, ProviderError, ResponseShapeError } from './errors';

/** `data[0].source.rail` style path for a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

export function zodIssuesToFields(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: formatIssuePath(issue.path),
    rule: issue.code,
    message: issue.message,
  }));
}

export interface ShapeContext {
  method: string;
  path: string;
  status?: number;
  requestId?: string;
}

/** Wraps whatever a response parser threw, with the request context. Other ProviderErrors pass through unchanged. */
export function toResponseShapeError(thrown: unknown, ctx: ShapeContext): ProviderError {
  if (thrown instanceof ProviderError && !(thrown instanceof ResponseShapeError)) return thrown;
  const fields: FieldIssue[] = issuesOf(thrown);
  const shown = fields
    .slice(0, 5)
    .map((f) => `${f.path}: ${f.message}`)
    .join('; ');
  const more = fields.length > 5 ? ` (+${fields.length - 5} more)` : '';
  return new ResponseShapeError(
    `The answer to ${ctx.method} ${ctx.path} does not match the contract at ${shown}${more}`,
    { ...ctx, fields },
  );
}

/**
 * The offending paths of whatever a parser threw: a ZodError, the contract's ContractParseError (recognised by
 * its `violations`, so this file needs no contract import), a ResponseShapeError, or anything else.
 */
export function issuesOf(thrown: unknown): FieldIssue[] {
  if (thrown instanceof z.ZodError) return zodIssuesToFields(thrown);
  if (thrown instanceof ResponseShapeError) return thrown.fields;
  const violations = (thrown as { violations?: unknown } | null)?.violations;
  if (Array.isArray(violations)) {
    return violations.map((v: { path?: unknown; rule?: unknown; message?: unknown }) => ({
      path: typeof v.path === 'string' && v.path !== '' ? v.path : '(root)',
      rule: String(v.rule ?? 'contract'),
      message: String(v.message ?? 'does not match the contract'),
    }));
  }
  return [
    { path: '(root)', rule: 'normalize', message: thrown instanceof Error ? thrown.message : String(thrown) },
  ];
}
