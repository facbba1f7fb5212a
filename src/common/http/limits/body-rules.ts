/**
 * What the JSON body layer accepts, and how it refuses, decided on a request's headers before a
 * byte of its body is read and on the bytes once read (body-parsing.ts reads them). Every refusal
 * is the client's error, in the envelope: a body is never a reason for a 500. Pure.
 */
import { ApiError } from '../api-error';

export const KB = 1024;
export const MB = 1024 * 1024;

/**
 * Content-Encodings a body may come in. zstd is left out: Node has it only from 22.15, and what is
 * accepted must not depend on the Node version the service runs on.
 */
export const BODY_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** How the body is to be read: its encoding, and the most bytes it may take on the wire and once inflated. */
export interface BodyPlan {
  encoding: BodyEncoding;
  limit: number;
}

export interface BodyHeaders {
  'content-type'?: string;
  'content-encoding'?: string;
  'content-length'?: string;
}

export const NOT_JSON_TYPE = 'send the body as JSON with Content-Type: application/json';
export const ENCODING_NOT_ACCEPTED = `the request body's Content-Encoding is not accepted: send it uncompressed, or as ${BODY_ENCODINGS.slice(1, -1).join(', ')} or ${BODY_ENCODINGS[BODY_ENCODINGS.length - 1]}`;
export const NOT_DECODED = 'the request body could not be decoded (its Content-Encoding does not match its bytes)';
export const NOT_JSON = 'the request body is not valid JSON';
export const ABORTED = 'the request was aborted';
/** Keys that could reach an object's prototype are never fields of ours: the body is refused outright. */
export const RESERVED_KEY_MESSAGE = 'the request body uses a reserved key';

/**
 * The checks made on the headers alone, in this order: a JSON type, a charset of UTF-8, an accepted
 * encoding (415 otherwise: the only refusal with a status of its own), a Content-Length within the
 * limit. A refused body is never read: a 50 MB body announced to a 1 MB route is answered at once.
 */
export function planBody(headers: BodyHeaders, limit: number): BodyPlan | ApiError {
  const [type, ...params] = (headers['content-type'] ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType))
    return new ApiError('bad_request', NOT_JSON_TYPE);
  const charset = charsetOf(params);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    return new ApiError(
      'bad_request',
      `send the body in UTF-8 (charset ${JSON.stringify(charset.slice(0, 40))} is not read)`,
    );
  }
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!(BODY_ENCODINGS as readonly string[]).includes(encoding))
    return new ApiError('bad_request', ENCODING_NOT_ACCEPTED, { status: 415 });
  // Node's parser has checked that Content-Length is digits; a length past the limit is refused
  // for a compressed body too: its bytes on the wire count against the limit as well.
  const length = headers['content-length'];
  if (length !== undefined && Number(length) > limit) return tooLarge(limit);
  return { encoding: encoding as BodyEncoding, limit };
}

function charsetOf(params: string[]): string | null {
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(p);
    if (m) return m[1].trim().toLowerCase();
  }
  return null;
}

export function tooLarge(limit: number): ApiError {
  return new ApiError('bad_request', `the request body is larger than ${formatBytes(limit)}`);
}

/**
 * The body's JSON. Any JSON value is returned (`null`, `42`, `"text"`): the route answers 422 on
 * field `body` when it wants an object (requireObjectBody), rather than 400 "not valid JSON". An
 * empty body (chunked, no bytes) reads as `{}`.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return {};
  try {
    return JSON.parse(bytes.toString('utf8'), refuseReservedKeys);
  } catch (err) {
    if (err instanceof ReservedKey) throw new ApiError('bad_request', err.message);
    throw new ApiError('bad_request', NOT_JSON);
  }
}

class ReservedKey extends Error {}

function refuseReservedKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype')
    throw new ReservedKey(`${RESERVED_KEY_MESSAGE}: ${key}`);
  return value;
}

export function formatBytes(n: number): string {
  if (n >= MB && n % MB === 0) return `${n / MB} MB`;
  if (n >= KB && n % KB === 0) return `${n / KB} KB`;
  return `${n} bytes`;
}
