/**
 * Validation at the edge: class-validator DTOs, unknown fields rejected, every failure a 422
 * `invalid` with dotted field paths (`http.url`, `http.json[2].op`).
 */
import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from './class-validator';
import { ApiError, FieldError } from '../http/api-error';

/** Flattens class-validator's error tree into dotted paths with one message per field. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const isIndex = /^\d+$/.test(e.property);
    const field = prefix === '' ? e.property : isIndex ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`;
    if (e.constraints) {
      const messages = Object.entries(e.constraints);
      const whitelist = messages.find(([k]) => k === 'whitelistValidation');
      out.push({ field, message: whitelist ? 'unknown field' : withoutPropertyName(messages[0][1], e.property) });
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/** class-validator starts its messages with the property name; the field is reported separately. */
function withoutPropertyName(message: string, property: string): string {
  const prefixes = [`${property} `, `each value in ${property} `];
  for (const p of prefixes) if (message.startsWith(p)) return message.slice(p.length);
  return message;
}

export interface ValidateOptions {
  /** Defaults to true: fields the DTO does not declare are errors, never silently dropped. */
  forbidUnknown?: boolean;
}

/**
 * Every JSON route that takes an object: `[]`, `null`, a number, a string or `true` is valid JSON
 * but no request of ours, so it is a 422 on field `body` (malformed JSON stays 400 bad_request).
 */
export function requireObjectBody(value: unknown): asserts value is Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
  throw ApiError.invalid([{ field: 'body', message: 'must be a JSON object' }]);
}

/** Validates a plain object against a DTO class; throws ApiError invalid on failure. */
export function validateDto<T extends object>(cls: new () => T, value: unknown, opts: ValidateOptions = {}): T {
  requireObjectBody(value);
  const { instance, errors } = checkDto(cls, value, opts);
  if (errors.length) throw ApiError.invalid(errors);
  return instance;
}

/** Like validateDto, but returns the errors instead of throwing (for bulk items). */
export function checkDto<T extends object>(
  cls: new () => T,
  value: object,
  opts: ValidateOptions = {},
): { instance: T; errors: FieldError[] } {
  const instance = plainToInstance(cls, value, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: opts.forbidUnknown !== false,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  return { instance, errors: flattenValidationErrors(errors) };
}

/** The body of routes that take "an optional empty object": absent, or {} and nothing else. */
export class EmptyDto {}

/** Nest pipe for @Body() parameters typed with a DTO class. */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type !== 'body' || !meta.metatype || !isDtoClass(meta.metatype)) return value;
    if (meta.metatype === EmptyDto) return checkEmpty(value);
    // No body at all is an empty object; a body of `null` is not an object (422).
    return validateDto(meta.metatype as new () => object, value === undefined ? {} : value);
  }
}

function checkEmpty(value: unknown): EmptyDto {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.invalid([{ field: 'body', message: 'must be empty or an empty JSON object {}' }]);
  }
  const keys = Object.keys(value);
  if (keys.length) throw ApiError.invalid(keys.map((field) => ({ field, message: 'unknown field' })));
  return {};
}

function isDtoClass(t: unknown): boolean {
  return typeof t === 'function' && ![String, Number, Boolean, Array, Object].includes(t as never);
}
