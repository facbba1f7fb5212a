/**
 * A JSON Schema (2020-12) checker for the words the route description uses, so tests can hold
 * real answers against the document without a new dependency. `mode` follows OpenAPI: a
 * `readOnly` property is not required in a request, a `writeOnly` one not in a response.
 * A keyword it does not know is reported, never skipped silently.
 */
export type Schema = Record<string, unknown>;
export type Mode = 'request' | 'response';

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'description',
  'default',
  'readOnly',
  'writeOnly',
  'examples',
  'title',
  'minProperties',
]);
const FORMATS: Record<string, RegExp> = {
  // common/time.ts toIso: RFC 3339 UTC with milliseconds.
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
};

export function validate(schema: Schema, value: unknown, root: Schema, mode: Mode = 'response', at = '$'): string[] {
  const errors: string[] = [];
  for (const k of Object.keys(schema))
    if (!KNOWN.has(k) && !k.startsWith('x-')) errors.push(`${at}: schema keyword ${k} is not checked`);

  if (typeof schema.$ref === 'string') errors.push(...validate(resolveRef(root, schema.$ref), value, root, mode, at));
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => hasType(value, t))) {
      errors.push(`${at}: expected ${types.join(' or ')}, got ${typeName(value)}`);
      return errors;
    }
  }
  if (schema.enum !== undefined && !(schema.enum as unknown[]).some((e) => same(e, value)))
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && !same(schema.const, value)) errors.push(`${at}: must be ${JSON.stringify(schema.const)}`);

  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      errors.push(`${at}: ${value} < minimum ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      errors.push(`${at}: ${value} > maximum ${schema.maximum}`);
    if (typeof schema.multipleOf === 'number' && value % schema.multipleOf !== 0)
      errors.push(`${at}: ${value} is not a multiple of ${schema.multipleOf}`);
  }
  if (typeof value === 'string') {
    const n = [...value].length;
    if (typeof schema.minLength === 'number' && n < schema.minLength)
      errors.push(`${at}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && n > schema.maxLength)
      errors.push(`${at}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      errors.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
    const f = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (f && !f.test(value)) errors.push(`${at}: ${JSON.stringify(value)} is not a ${schema.format as string}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      errors.push(`${at}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      errors.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
      errors.push(`${at}: items repeat`);
    if (schema.items)
      value.forEach((v, i) => errors.push(...validate(schema.items as Schema, v, root, mode, `${at}[${i}]`)));
  }
  if (isObject(value)) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (name in value) continue;
      const p = props[name] ? deref(root, props[name]) : {};
      if ((mode === 'request' && p.readOnly) || (mode === 'response' && p.writeOnly)) continue;
      errors.push(`${at}: missing ${name}`);
    }
    if (typeof schema.minProperties === 'number' && Object.keys(value).length < schema.minProperties)
      errors.push(`${at}: fewer than ${schema.minProperties} properties`);
    for (const [name, v] of Object.entries(value)) {
      if (props[name]) errors.push(...validate(props[name], v, root, mode, `${at}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: ${name} is not described`);
      else if (isObject(schema.additionalProperties))
        errors.push(...validate(schema.additionalProperties as Schema, v, root, mode, `${at}.${name}`));
    }
  }
  if (Array.isArray(schema.allOf))
    for (const s of schema.allOf as Schema[]) errors.push(...validate(s, value, root, mode, at));
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Schema[]).map((s) => validate(s, value, root, mode, at));
    if (!fits.some((e) => e.length === 0))
      errors.push(`${at}: matches none of anyOf (${fits.map((e) => e[0]).join(' | ')})`);
  }
  if (Array.isArray(schema.oneOf)) {
    const fits = (schema.oneOf as Schema[]).map((s) => validate(s, value, root, mode, at));
    const n = fits.filter((e) => e.length === 0).length;
    if (n !== 1)
      errors.push(
        `${at}: matches ${n} of oneOf, must match exactly one${n === 0 ? ` (${fits.map((e) => e[0]).join(' | ')})` : ''}`,
      );
  }
  return errors;
}

/** `#/a/b` inside `root`; throws on a dangling reference. */
export function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local references are used: ${ref}`);
  let node: unknown = root;
  for (const part of ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (!isObject(node) || !(part in node)) throw new Error(`${ref} does not resolve`);
    node = node[part];
  }
  if (!isObject(node)) throw new Error(`${ref} is not an object`);
  return node;
}

function deref(root: Schema, s: Schema): Schema {
  return typeof s.$ref === 'string' ? resolveRef(root, s.$ref) : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      throw new Error(`unknown type ${t}`);
  }
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
