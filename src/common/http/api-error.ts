/**
 * The one error type domain code throws, and the one place that turns any error into the
 * spec's envelope {error: {code, message, field?, fields?}} with its HTTP status.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  sign_in: 401,
  forbidden: 403,
  step_up: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string; fields?: FieldError[] };
}

export class ApiError extends Error {
  readonly status: number;
  readonly field?: string;
  readonly fields?: FieldError[];
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Record<string, string>;

  /**
   * `status`: a more precise HTTP status than the code's own, where the spec's table has no code
   * for it (415 for a Content-Encoding that is not accepted, answered as `bad_request`).
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: { field?: string; fields?: FieldError[]; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.status = extra.status ?? ERROR_STATUS[code];
    this.field = extra.field;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }

  /** A 422 for one or more fields; `field` is the first. */
  static invalid(fields: FieldError[], message?: string): ApiError {
    const first = fields[0];
    return new ApiError('invalid', message ?? (first ? `${first.field}: ${first.message}` : 'invalid input'), {
      field: first?.field,
      fields,
    });
  }

  static notFound(what: string): ApiError {
    return new ApiError('not_found', `${what} not found`);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.field !== undefined) body.error.field = this.field;
    if (this.fields !== undefined) body.error.fields = this.fields;
    return body;
  }
}

/** Shorthand for a single-field 422. */
export function invalidField(field: string, message: string): ApiError {
  return ApiError.invalid([{ field, message }]);
}
