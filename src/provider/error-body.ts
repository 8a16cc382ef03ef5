// Reads the service's error body with the contract's schema (docs/spec-gaps.md, "Body shape of errors").
import { ErrorBodySchema } from '../contract';
import { type ServiceErrorInfo } from './error-mapping';

export function readErrorBody(json: unknown): ServiceErrorInfo | undefined {
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { code, message, requestId, fields } = parsed.data.error;
  return {
    code,
    message,
    requestId,
    fields: fields.map(({ path, rule, message: m }) => ({ path, rule, message: m })),
  };
}
