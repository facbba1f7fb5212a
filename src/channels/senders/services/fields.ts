/**
 * Field checks the service kinds share (ntfy, Gotify, Telegram, Pushover, Matrix, PagerDuty, Home
 * Assistant, Apprise): a server URL with an optional default, a token of the shape the service
 * documents, an optional short text. Each adds a field error at `config.<name>` and returns the
 * value to keep. `********` passes a secret's check: the caller keeps the stored value. Pure.
 */
import type { FieldError } from '../../../common/http/api-error';
import { isMask } from '../../../common/secrets/secrets';
import type { ParsedConfig } from '../../channel-kind';
import { receiverUrlProblem, shapeErrors } from '../config-fields';

export type Fields = Record<string, unknown>;

/** The body, or the errors of a config that is not an object or has unknown fields. */
export function openConfig(raw: unknown, known: readonly string[]): { body: Fields; errors: FieldError[] } | null {
  const errors = shapeErrors(raw, known);
  if (errors.length && errors[0].field === 'config') return null;
  return { body: raw as Fields, errors };
}

export function notAnObject<C>(): ParsedConfig<C> {
  return { ok: false, errors: [{ field: 'config', message: 'must be an object' }] };
}

/** A server's base URL (http or https, no query): trailing slashes dropped; `fallback` when absent. */
export function serverField(body: Fields, name: string, errors: FieldError[], fallback?: string): string {
  const value = body[name] ?? fallback;
  if (value === undefined) {
    errors.push({ field: `config.${name}`, message: 'is required: the server’s address, https://… or http://…' });
    return '';
  }
  const problem = receiverUrlProblem(value);
  if (problem) {
    errors.push({ field: `config.${name}`, message: problem });
    return '';
  }
  if (isMask(value)) return value as string;
  if (new URL(value as string).search) {
    errors.push({ field: `config.${name}`, message: 'must be the server’s address without a ?query' });
    return '';
  }
  return (value as string).replace(/\/+$/, '');
}

/** A URL used as it is (the Apprise notify URL, a secret). */
export function urlField(body: Fields, name: string, errors: FieldError[]): string {
  const problem = receiverUrlProblem(body[name]);
  if (problem) errors.push({ field: `config.${name}`, message: problem });
  return typeof body[name] === 'string' ? (body[name] as string) : '';
}

/**
 * A token the service hands out: required unless `optional`, `********` kept, else it must match
 * `shape` (said in `looks`, e.g. "30 letters and digits, as Pushover shows it").
 */
export function tokenField(
  body: Fields,
  name: string,
  errors: FieldError[],
  shape: RegExp,
  looks: string,
  optional = false,
): string | null {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    if (!optional) errors.push({ field: `config.${name}`, message: `is required: ${looks}` });
    return null;
  }
  if (isMask(value)) return value as string;
  if (typeof value !== 'string' || !shape.test(value)) {
    errors.push({ field: `config.${name}`, message: `must be ${looks}` });
    return null;
  }
  return value;
}

/** A plain text field matching `shape`, or null when absent and optional. */
export function textField(
  body: Fields,
  name: string,
  errors: FieldError[],
  shape: RegExp,
  looks: string,
  optional = false,
): string | null {
  return tokenField(body, name, errors, shape, looks, optional);
}

export function parsed<C>(errors: FieldError[], config: C): ParsedConfig<C> {
  return errors.length ? { ok: false, errors } : { ok: true, config };
}
