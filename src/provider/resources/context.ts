// What every resource module shares: the transport, paging names and the pre-validation settings.
import { LocalValidationError } from '../errors';
import { type CreateOptions } from '../options';
import { type PagingParams } from '../pagination';
import { assertValid, type ValidatedKind } from '../prevalidation';
import { type Transport } from '../transport';

export interface ClientContext {
  transport: Transport;
  paging: PagingParams;
  prevalidate: boolean;
  asOf: () => Date;
}

// Header-safe, visible ASCII; the length bound is ours (the service's is not shown).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs before every creating call: the idempotency key must be there (spec: Authentication 3; the type already
 * requires it, this catches `as any` and empty strings), then the contract's validators unless turned off.
 */
export function beforeCreate(
  ctx: ClientContext,
  kind: ValidatedKind | null,
  body: unknown,
  options: CreateOptions,
  endpoint: string,
): void {
  const key = (options as Partial<CreateOptions> | undefined)?.idempotencyKey;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new LocalValidationError(
      `${endpoint} not sent: an idempotency key (1-255 visible ASCII characters) is required on every creating call`,
      {
        method: 'POST',
        fields: [
          {
            path: 'idempotencyKey',
            rule: 'required',
            message: 'pass { idempotencyKey } derived from the workflow ID and step',
          },
        ],
      },
    );
  }
  if (kind !== null && (options.prevalidate ?? ctx.prevalidate)) {
    assertValid(kind, body, options.asOf ?? ctx.asOf());
  }
}

export const segment = (value: string): string => {
  if (typeof value !== 'string' || value === '') {
    throw new LocalValidationError('A path identifier must be a non-empty string', {
      fields: [{ path: 'id', rule: 'required', message: 'pass the identifier returned by the service' }],
    });
  }
  return encodeURIComponent(value);
};
