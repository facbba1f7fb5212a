/**
 * Maps anything thrown while answering a request to {status, body, headers}. Nest's own
 * HttpExceptions (unknown route, ...) are translated to our codes (request bodies are read by
 * body-parsing.ts, which throws ApiErrors only);
 * anything else is `internal` with no detail, and the caller logs it with a correlation id.
 */
import { HttpException } from '@nestjs/common';
import { StorageUnavailable } from '../../db/database';
import { ApiError, ErrorBody, ErrorCode, ERROR_STATUS } from './api-error';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error was not one we expected: log it. */
  unexpected: boolean;
}

const STATUS_CODE: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'sign_in',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  409: 'conflict',
  413: 'bad_request',
  415: 'bad_request',
  422: 'invalid',
  429: 'too_many_requests',
  503: 'unavailable',
};

export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof ApiError) {
    return { status: err.status, body: err.toBody(), headers: err.headers ?? {}, unexpected: false };
  }
  if (err instanceof StorageUnavailable) {
    // Never 2xx for what is not durable: the change was rolled back and may be sent again.
    return {
      status: ERROR_STATUS.unavailable,
      body: { error: { code: 'unavailable', message: err.message } },
      headers: { 'Retry-After': '30' },
      unexpected: false,
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const code: ErrorCode = STATUS_CODE[status] ?? (status >= 500 ? 'internal' : 'bad_request');
    const message = status === 404 ? 'no such route' : status >= 500 ? 'internal error' : httpMessage(err);
    return {
      status: ERROR_STATUS[code],
      body: { error: { code, message } },
      headers: {},
      unexpected: status >= 500,
    };
  }
  return {
    status: 500,
    body: { error: { code: 'internal', message: 'internal error' } },
    headers: {},
    unexpected: true,
  };
}

function httpMessage(err: HttpException): string {
  const res = err.getResponse();
  if (typeof res === 'string') return res;
  if (typeof res === 'object' && res !== null && 'message' in res) {
    const m = (res as { message: unknown }).message;
    if (typeof m === 'string') return m;
    if (Array.isArray(m)) return m.join('; ');
  }
  return err.message;
}
