/** A refusal the sandbox answers with the error body of the contract (docs/spec-gaps.md, "Body shape of errors"). */
export interface FieldViolation {
  path: string;
  rule: string;
  message: string;
}

export class ApiError extends Error {
  readonly type = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldViolation[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, 'NOT_FOUND', `${what} ${id} does not exist`);

export const validationError = (fields: FieldViolation[]): ApiError =>
  new ApiError(
    400,
    'VALIDATION_ERROR',
    `The request has ${fields.length} invalid field(s); see fields`,
    fields,
  );

/** Used by removed and legacy endpoints after their end date: 410 with the replacement in the message. */
export const endpointRemoved = (replacement: string, since: string): ApiError =>
  new ApiError(410, 'ENDPOINT_REMOVED', `This endpoint was removed on ${since}; use ${replacement}`);
