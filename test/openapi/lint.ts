/**
 * Checks an OpenAPI 3.1 document against the rules of the specification a standard linter
 * (Redocly's `recommended` set) would enforce first, without a new dependency: structure, every
 * `$ref` resolving, operation ids, path parameters, responses, security, tags, and well-formed
 * schemas whose defaults and enums fit them. Returns the problems, each with where it is.
 */
import { resolveRef, Schema, validate } from './json-schema';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PARAM_IN = ['query', 'header', 'path', 'cookie'];
const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];
const MEDIA = /^([a-z*]+)\/([a-z0-9.+*-]+)$/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function lintOpenApi(doc: Obj): string[] {
  const out: string[] = [];
  const problem = (where: string, what: string) => out.push(`${where}: ${what}`);

  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) problem('openapi', 'must be 3.1.x');
  const info = doc.info;
  if (!isObj(info) || typeof info.title !== 'string' || typeof info.version !== 'string')
    problem('info', 'needs title and version strings');
  if (!isObj(doc.paths)) {
    problem('paths', 'missing');
    return out;
  }
  if (!Array.isArray(doc.servers) || !doc.servers.every((s) => isObj(s) && typeof s.url === 'string'))
    problem('servers', 'each server needs a url');

  // Every $ref anywhere resolves.
  walk(doc, '#', (node, where) => {
    if (typeof node.$ref !== 'string') return;
    try {
      resolveRef(doc, node.$ref);
    } catch (e) {
      problem(where, (e as Error).message);
    }
  });

  const components = isObj(doc.components) ? doc.components : {};
  const schemes = isObj(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, s] of Object.entries(schemes)) {
    if (!isObj(s) || !['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'].includes(s.type as string))
      problem(`securitySchemes.${name}`, 'unknown type');
    else if (
      s.type === 'apiKey' &&
      (typeof s.name !== 'string' || !['query', 'header', 'cookie'].includes(s.in as string))
    )
      problem(`securitySchemes.${name}`, 'apiKey needs name and in');
    else if (s.type === 'http' && typeof s.scheme !== 'string') problem(`securitySchemes.${name}`, 'http needs scheme');
  }
  const tags = new Set(Array.isArray(doc.tags) ? doc.tags.map((t) => (isObj(t) ? t.name : undefined)) : []);
  const ids = new Map<string, string>();
  const shapes = new Map<string, string>();

  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) problem(path, 'a path starts with /');
    if (!isObj(item)) continue;
    const template = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    if (shapes.has(shape) && shapes.get(shape) !== path)
      problem(path, `same shape as ${shapes.get(shape)} (ambiguous)`);
    shapes.set(shape, path);
    for (const key of Object.keys(item))
      if (!METHODS.includes(key) && !['parameters', 'summary', 'description', 'servers'].includes(key))
        problem(path, `unknown key ${key}`);
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!isObj(op)) {
        problem(where, 'not an object');
        continue;
      }
      if (typeof op.operationId !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(op.operationId))
        problem(where, 'operationId missing or not url-safe');
      else if (ids.has(op.operationId))
        problem(where, `operationId ${op.operationId} repeats ${ids.get(op.operationId)}`);
      else ids.set(op.operationId, where);
      if (typeof op.summary !== 'string' || op.summary === '') problem(where, 'summary missing');
      if (Array.isArray(op.tags))
        for (const t of op.tags) if (!tags.has(t)) problem(where, `tag ${String(t)} is not declared`);

      const params = (Array.isArray(op.parameters) ? op.parameters : []).map((p) =>
        isObj(p) && typeof p.$ref === 'string' ? safeRef(doc, p.$ref) : p,
      );
      const seen = new Set<string>();
      const pathParams: string[] = [];
      for (const p of params) {
        if (!isObj(p) || typeof p.name !== 'string' || !PARAM_IN.includes(p.in as string)) {
          problem(where, 'a parameter needs name and in');
          continue;
        }
        if (seen.has(`${p.in}:${p.name}`)) problem(where, `parameter ${p.name} in ${p.in} repeats`);
        seen.add(`${p.in}:${p.name}`);
        if (!isObj(p.schema) && !isObj(p.content)) problem(where, `parameter ${p.name} needs a schema`);
        if (p.in === 'path') {
          pathParams.push(p.name);
          if (p.required !== true) problem(where, `path parameter ${p.name} must be required`);
        }
      }
      if ([...template].sort().join() !== [...pathParams].sort().join())
        problem(where, `path parameters [${pathParams}] do not match the template [${template}]`);

      if (op.requestBody !== undefined) {
        const rb = op.requestBody;
        if (!isObj(rb) || !isObj(rb.content) || Object.keys(rb.content).length === 0)
          problem(where, 'requestBody needs content');
        else for (const type of Object.keys(rb.content)) if (!MEDIA.test(type)) problem(where, `media type ${type}`);
        if (['get', 'head', 'delete'].includes(method)) problem(where, `${method.toUpperCase()} with a request body`);
      }
      const responses = op.responses;
      if (!isObj(responses) || Object.keys(responses).length === 0) {
        problem(where, 'responses missing');
        continue;
      }
      if (!Object.keys(responses).some((s) => /^[23]\d\d$/.test(s))) problem(where, 'no success response');
      for (const [status, r] of Object.entries(responses)) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problem(where, `response key ${status}`);
        const res = isObj(r) && typeof r.$ref === 'string' ? safeRef(doc, r.$ref) : r;
        if (!isObj(res) || typeof res.description !== 'string')
          problem(`${where} ${status}`, 'response needs a description');
        else if (isObj(res.content))
          for (const type of Object.keys(res.content))
            if (!MEDIA.test(type)) problem(`${where} ${status}`, `media type ${type}`);
      }
      const security = op.security ?? doc.security;
      if (security !== undefined) {
        if (!Array.isArray(security)) problem(where, 'security must be an array');
        else
          for (const req of security) {
            if (!isObj(req)) problem(where, 'a security requirement is an object');
            else
              for (const [name, scopes] of Object.entries(req)) {
                if (!(name in schemes)) problem(where, `security scheme ${name} is not declared`);
                if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string'))
                  problem(where, `scopes of ${name} must be strings`);
              }
          }
      }
    }
  }

  const schemas = isObj(components.schemas) ? components.schemas : {};
  for (const [name, s] of Object.entries(schemas)) lintSchema(doc, s, `#/components/schemas/${name}`, problem);
  return out;
}

function lintSchema(root: Obj, s: unknown, where: string, problem: (w: string, m: string) => void): void {
  if (!isObj(s)) return problem(where, 'a schema is an object');
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  for (const t of types) if (!TYPES.includes(t as string)) problem(where, `type ${String(t)}`);
  if (s.enum !== undefined && (!Array.isArray(s.enum) || s.enum.length === 0))
    problem(where, 'enum must be a non-empty array');
  if (types.includes('array') && s.items === undefined) problem(where, 'an array needs items');
  if (s.required !== undefined) {
    if (!Array.isArray(s.required)) problem(where, 'required must be an array');
    else if (s.additionalProperties === false) {
      const props = isObj(s.properties) ? s.properties : {};
      for (const r of s.required) if (!(String(r) in props)) problem(where, `required ${String(r)} is not a property`);
    }
  }
  for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
    if (s[k] !== undefined && typeof s[k] !== 'number') problem(where, `${k} must be a number`);
  }
  if (typeof s.pattern === 'string') {
    try {
      new RegExp(s.pattern, 'u');
    } catch {
      problem(where, `pattern ${s.pattern} is not a regular expression`);
    }
  }
  if ('default' in s)
    for (const e of validate(s as Schema, s.default, root as Schema, 'request', `${where} default`)) problem(where, e);
  if (Array.isArray(s.enum) && types.length)
    for (const v of s.enum)
      for (const e of validate({ type: s.type }, v, root as Schema, 'request', `${where} enum`)) problem(where, e);
  if (isObj(s.properties))
    for (const [k, v] of Object.entries(s.properties)) lintSchema(root, v, `${where}/properties/${k}`, problem);
  if (s.items !== undefined) lintSchema(root, s.items, `${where}/items`, problem);
  if (isObj(s.additionalProperties)) lintSchema(root, s.additionalProperties, `${where}/additionalProperties`, problem);
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    if (s[k] === undefined) continue;
    if (!Array.isArray(s[k]) || (s[k] as unknown[]).length === 0) problem(where, `${k} must be a non-empty array`);
    else (s[k] as unknown[]).forEach((x, i) => lintSchema(root, x, `${where}/${k}/${i}`, problem));
  }
}

function safeRef(doc: Obj, ref: string): unknown {
  try {
    return resolveRef(doc, ref);
  } catch {
    return undefined;
  }
}

function walk(node: unknown, where: string, visit: (node: Obj, where: string) => void): void {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${where}/${i}`, visit));
  else if (isObj(node)) {
    visit(node, where);
    for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`, visit);
  }
}
