/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the route description: small builders every
 * `*.schema.ts` file uses, and the shapes every route shares (the error envelope, lists, times).
 * Each module describes its own requests and answers in a `*.schema.ts` beside the code that
 * validates or builds them, from the same constants, so a limit changed there changes here.
 * Answers are described strictly (every field required, no others allowed): the e2e tests
 * check real answers against these schemas, so a field added to an answer without its schema fails.
 * Pure.
 */
import { ERROR_STATUS } from '../http/api-error';
import { DEFAULT_LIMIT, LimitRule } from '../http/paging';

export type JsonSchema = { [key: string]: unknown };
/** Named schemas of one module: they become `components.schemas` of the document. */
export type SchemaSet = Record<string, JsonSchema>;

type Extra = JsonSchema;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const str = (extra: Extra = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (min?: number, max?: number, extra: Extra = {}): JsonSchema => ({
  type: 'integer',
  ...(min === undefined ? {} : { minimum: min }),
  ...(max === undefined ? {} : { maximum: max }),
  ...extra,
});
export const num = (extra: Extra = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: Extra = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const oneOfValues = (values: readonly (string | number | boolean | null)[], extra: Extra = {}): JsonSchema => ({
  enum: [...values],
  ...extra,
});
export const list = (items: JsonSchema, extra: Extra = {}): JsonSchema => ({ type: 'array', items, ...extra });
/** Any JSON object (fields described in words). */
export const anyObject = (extra: Extra = {}): JsonSchema => ({ type: 'object', ...extra });

/** RFC 3339 UTC with milliseconds (common/time.ts toIso). */
export const time = (extra: Extra = {}): JsonSchema => ({ type: 'string', format: 'date-time', ...extra });
/** Epoch milliseconds. */
export const epochMs = (extra: Extra = {}): JsonSchema => ({ type: 'integer', minimum: 0, ...extra });

/** `schema` or null. Plain types get `null` added to `type`; anything else is wrapped in anyOf. */
export function nullable(schema: JsonSchema): JsonSchema {
  const t = schema.type;
  if (typeof t === 'string' && schema.enum === undefined) return { ...schema, type: [t, 'null'] };
  if (Array.isArray(t) && schema.enum === undefined)
    return t.includes('null') ? schema : { ...schema, type: [...t, 'null'] };
  if (Array.isArray(schema.enum))
    return schema.enum.includes(null) ? schema : { ...schema, enum: [...schema.enum, null] };
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
}

export interface ObjectOptions {
  /** Names that must be present; default: every property (answers always carry every field). */
  required?: readonly string[];
  /** Default false: a field that is not described is an error (requests) or drift (answers). */
  additionalProperties?: boolean | JsonSchema;
  description?: string;
}

export function obj(properties: Record<string, JsonSchema>, opts: ObjectOptions = {}): JsonSchema {
  const required = opts.required ?? Object.keys(properties);
  return {
    type: 'object',
    ...(opts.description ? { description: opts.description } : {}),
    properties,
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: opts.additionalProperties ?? false,
  };
}

/** Adds a description (keeps the schema otherwise). */
export const described = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });

/** A list answer `{items, next_cursor}` (common/http/paging.ts). */
export function page(item: JsonSchema, cursor: JsonSchema = { type: ['string', 'integer'] }): JsonSchema {
  return obj({
    items: list(item),
    next_cursor: described(nullable(cursor), 'pass as `before` for the next page; null on the last page'),
  });
}

/** The query parameters of a list route (`limit`, `before`). */
export function pageQuery(
  rule: LimitRule = DEFAULT_LIMIT,
  before = 'the `next_cursor` of the previous page',
): QueryParam[] {
  return [
    {
      name: 'limit',
      schema: int(rule.min, rule.max, { default: rule.default }),
      description: `page size, ${rule.min}-${rule.max} (default ${rule.default}); outside the range: 422`,
    },
    { name: 'before', schema: str(), description: before },
  ];
}

/** A query parameter as the route table gives it. */
export interface QueryParam {
  name: string;
  schema: JsonSchema;
  description: string;
  required?: boolean;
}

export const FIELD_ERROR = obj({
  field: str({ description: 'dotted path, e.g. `http.url` or `http.json[2].op`' }),
  message: str(),
});

/** The error envelope every error answer carries (common/http/api-error.ts, error-envelope.ts). */
export const ERROR_ENVELOPE = obj(
  {
    error: obj(
      {
        code: oneOfValues(Object.keys(ERROR_STATUS), {
          description: Object.entries(ERROR_STATUS)
            .map(([code, status]) => `${code} (${status})`)
            .join(', '),
        }),
        message: str({ description: 'for people; never a secret, a stack or a database message' }),
        field: str({ description: 'the first field at fault (422)' }),
        fields: list(ref('FieldError'), { description: 'every field at fault (422)' }),
      },
      { required: ['code', 'message'] },
    ),
  },
  { description: 'Every error answer: `{error: {code, message, field?, fields?}}`.' },
);

/** `{code, message}`: a check's error, an incident's cause. */
export const ERROR_OBJECT = obj({ code: str(), message: str() });

export const OK_ANSWER = obj({ ok: bool({ const: true }) }, { description: '`{ok: true}`' });

/** An "optional empty object" body (common/validation/validation.ts EmptyDto). */
export const EMPTY_BODY = obj({}, { description: 'absent, or `{}`; any field is 422 `unknown field`' });

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function commonSchemas(): SchemaSet {
  return {
    Error: ERROR_ENVELOPE,
    FieldError: FIELD_ERROR,
    ErrorObject: ERROR_OBJECT,
    Ok: OK_ANSWER,
    Empty: EMPTY_BODY,
  };
}
