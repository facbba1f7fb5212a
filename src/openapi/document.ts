/**
 * Builds the OpenAPI 3.1 document (`GET /api/openapi.json`) from the route table and the
 * modules' schemas. Error answers, security requirements and the Idempotency-Key header are
 * derived from each row's access rules, parameters and body, so they follow one rule everywhere
 * (docs/api.md "The route description"). Pure.
 */
import { ERROR_STATUS } from '../common/http/api-error';
import { JsonSchema, SchemaSet } from '../common/validation/common.schema';
import { ID_PATTERN } from '../common/validation/ids';
import { IDEMPOTENCY_WINDOW_MS } from '../common/http/idempotency';
import type { Answer, RouteDoc } from './route-doc';

/** The interface version (spec "Versioning": the route description declares interface version 1). */
export const INTERFACE_VERSION = '1';

export interface DocumentOptions {
  /** FARSIGHT_PUBLIC_URL: the server every path is relative to. */
  serverUrl: string;
  /** The running service's version (x-service-version). */
  serviceVersion: string;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, unknown>>;
};

/** Words for path parameters that rows do not describe themselves. */
const PATH_PARAMS: Record<string, string> = {
  id: 'the id',
  token: 'the token from the link',
  slug: 'the slug',
  name: 'the `page` value from the public status JSON',
  file: 'a file name',
  page: 'a page name',
  ip: 'the address',
};

/** Schemas of path parameters that rows do not give: every `{id}` is read by common/validation/ids.ts. */
const PATH_SCHEMAS: Record<string, JsonSchema> = {
  id: { type: 'string', pattern: ID_PATTERN },
};

const TAGS: { name: string; description: string }[] = [
  { name: 'Monitors', description: 'Monitors, their checks, series, uptime, and the summary.' },
  { name: 'Incidents', description: 'Outages, from the first failed check to recovery.' },
  {
    name: 'Maintenance',
    description: 'Planned work: windows that hold back incidents and alerts for their monitors (docs/maintenance.md).',
  },
  {
    name: 'Locations',
    description: 'Probe locations: other places that check monitors through a `farsight agent` (docs/agents.md).',
  },
  { name: 'Alerts', description: 'Alert channels and the delivery log.' },
  { name: 'Status page', description: "The public status page's settings, logo and icon." },
  { name: 'System', description: 'Settings, export and import, diagnostics, the timeline and the live stream.' },
  { name: 'API keys', description: 'Keys for scripts and agents.' },
  { name: 'Sign-in', description: "The owner's sign-in (no sign-in needed)." },
  { name: 'Owner', description: "The owner's account, sessions, passkeys and factors (owner session only)." },
  { name: 'Public', description: 'Public pages, assets, heartbeat pings and these documents.' },
];

const ERROR_RESPONSES: Record<string, { status: number; description: string; retryAfter?: boolean }> = {
  BadRequest: {
    status: 400,
    description:
      '`bad_request`: the body is not JSON, not sent as application/json in UTF-8, over its size limit, or not what its Content-Encoding says (docs/api.md#limits)',
  },
  UnsupportedEncoding: { status: 415, description: '`bad_request`: a Content-Encoding other than gzip, deflate or br' },
  UnreadableBody: {
    status: 400,
    description:
      '`bad_request`: this route takes no body, but one was sent that cannot be read (not JSON, not UTF-8, over the size limit, or not what its Content-Encoding says)',
  },
  SignIn: { status: 401, description: '`sign_in`: no credentials, or an unknown, revoked or expired key' },
  Forbidden: {
    status: 403,
    description:
      "`forbidden`: the key's scope is too low, an API key on a session-only route, or a cookie request without the dashboard Origin or without JSON",
  },
  ForbiddenOrStepUp: {
    status: 403,
    description:
      '`forbidden` (as above), or `step_up`: a session must have signed in within 12 hours; confirm with /api/v1/auth/step-up/... and repeat',
  },
  CrossOrigin: {
    status: 403,
    description:
      "`forbidden`: a cross-origin request (Origin is not the public URL's origin; while no public URL is configured, nor the request's own); the message names the expected address and where it comes from",
  },
  NotFound: { status: 404, description: '`not_found`: no such resource' },
  Conflict: { status: 409, description: '`conflict`' },
  Invalid: {
    status: 422,
    description:
      '`invalid`: validation failed; `field` is the first field at fault, `fields` all of them (dotted paths)',
  },
  TooManyRequests: {
    status: 429,
    description: '`too_many_requests`: 600 requests per minute per API key',
    retryAfter: true,
  },
  PasswordBusy: {
    status: 429,
    description:
      '`too_many_requests`: too many password checks at once, from this address (one runs, two wait) or in all (two run, 16 wait); answered before any check, not a failed attempt (docs/security.md#throttling)',
    retryAfter: true,
  },
  Unavailable: {
    status: 503,
    description: '`unavailable`: the database cannot store the change (nothing changed; try again)',
    retryAfter: true,
  },
  Error: {
    status: 500,
    description: 'any error, in the error envelope (`internal` for the unexpected, with a reference id)',
  },
};

/** Which shared error answers a row gets, by status. */
function errorRefs(r: RouteDoc): Record<string, string> {
  const out: Record<string, string> = {};
  const isPublic = r.access.public === true;
  const mutating = r.method !== 'get' && r.method !== 'head';
  const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].length > 0;
  if (r.servedAhead) return out;
  // Bodies are read before the handler, so a route that takes none still answers 400 to an unreadable one.
  out['400'] = r.body ? 'BadRequest' : 'UnreadableBody';
  if (r.body && (r.body.type ?? 'application/json') === 'application/json') out['415'] = 'UnsupportedEncoding';
  if (!isPublic) out['401'] = 'SignIn';
  if (r.access.public !== true) {
    const a = r.access;
    if (a.stepUp) out['403'] = 'ForbiddenOrStepUp';
    else if (mutating || a.scope !== 'read' || a.sessionOnly) out['403'] = 'Forbidden';
  } else if (mutating) out['403'] = 'CrossOrigin';
  if (pathParams) out['404'] = 'NotFound';
  if (!isPublic && r.method === 'post') out['409'] = 'Conflict';
  for (const s of r.errors ?? []) {
    if (s === 409) out['409'] = 'Conflict';
    else if (s === 404) out['404'] = 'NotFound';
    else if (s === 422) out['422'] = 'Invalid';
    else if (s === 400) out['400'] = 'BadRequest';
    else if (s === 503) out['503'] = 'Unavailable';
    else if (s === 401) out['401'] = 'SignIn';
    else if (s === 429)
      continue; // below, after the API rate's 429
    else throw new Error(`${r.id}: no shared error answer for status ${s}`);
  }
  if (r.body || r.query?.length) out['422'] = 'Invalid';
  if (!isPublic) out['429'] = 'TooManyRequests';
  // Routes that check or hash a password queue that work (auth/password/password-work.service.ts); they
  // take no API keys, so their 429 is this one.
  if (r.errors?.includes(429)) out['429'] = 'PasswordBusy';
  if (mutating) out['503'] = 'Unavailable';
  out.default = 'Error';
  return out;
}

function security(r: RouteDoc): Record<string, string[]>[] {
  const a = r.access;
  if (a.public === true) return [];
  if (a.sessionOnly) return [{ session: [] }];
  return [{ apiKey: [a.scope] }, { session: [] }];
}

function accessWords(r: RouteDoc): string {
  const a = r.access;
  if (a.public === true) return 'No sign-in needed.';
  const who = a.sessionOnly
    ? 'Owner session only (API keys get 403).'
    : `Scope \`${a.scope}\` (an API key with at least this scope, or the owner's session).`;
  const step = a.stepUp ? ' A session must have signed in within 12 hours (step-up); API keys are never asked.' : '';
  return `${who}${step}${r.accessNote ? ` ${r.accessNote}` : ''}`;
}

function content(type: string, schema: JsonSchema | undefined): Record<string, unknown> {
  return { [type]: schema ? { schema } : {} };
}

function answer(a: Answer): Record<string, unknown> {
  const out: Record<string, unknown> = { description: a.description };
  if (a.schema || a.type) out.content = content(a.type ?? 'application/json', a.schema);
  if (a.headers) out.headers = a.headers;
  return out;
}

function operation(r: RouteDoc): Record<string, unknown> {
  const params: Record<string, unknown>[] = [];
  for (const [, name] of r.path.matchAll(/\{(\w+)\}/g)) {
    const p = r.params?.[name];
    params.push({
      name,
      in: 'path',
      required: true,
      description: p?.description ?? PATH_PARAMS[name] ?? name,
      schema: p?.schema ?? PATH_SCHEMAS[name] ?? { type: 'string' },
    });
  }
  for (const q of r.query ?? [])
    params.push({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: q.schema,
    });
  if (r.method === 'post' && r.access.public !== true) params.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const responses: Record<string, unknown> = {};
  for (const [status, a] of Object.entries(r.answers)) responses[status] = answer(a);
  for (const [status, name] of Object.entries(errorRefs(r))) {
    if (!(status in responses)) responses[status] = { $ref: `#/components/responses/${name}` };
  }

  const a = r.access;
  const op: Record<string, unknown> = {
    operationId: r.id,
    tags: [r.tag],
    summary: r.summary,
    description: [r.description, accessWords(r), r.extra ? `Not in the specification's tables: ${r.extra}` : '']
      .filter(Boolean)
      .join('\n\n'),
    security: security(r),
    'x-scope': a.public === true ? 'public' : a.sessionOnly ? 'session' : a.scope,
  };
  if (a.public !== true && a.stepUp) op['x-step-up'] = true;
  if (r.servedAhead) op['x-served-ahead'] = true;
  if (r.extra) op['x-extra'] = true;
  if (params.length) op.parameters = params;
  if (r.body) {
    op.requestBody = {
      required: r.body.required ?? true,
      ...(r.body.description ? { description: r.body.description } : {}),
      content: content(r.body.type ?? 'application/json', r.body.schema),
    };
  }
  op.responses = responses;
  return op;
}

const RETRY_AFTER = { description: 'seconds to wait', schema: { type: 'integer', minimum: 0 } };

export function buildDocument(routes: readonly RouteDoc[], schemas: SchemaSet, opts: DocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const r of routes) {
    const item = (paths[r.path] ??= {});
    if (item[r.method]) throw new Error(`two rows for ${r.method.toUpperCase()} ${r.path}`);
    item[r.method] = operation(r);
  }
  const responses: Record<string, unknown> = {};
  for (const [name, e] of Object.entries(ERROR_RESPONSES)) {
    responses[name] = {
      description: e.description,
      ...(e.retryAfter ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Farsight API',
      version: INTERFACE_VERSION,
      summary: 'Self-hosted uptime monitor: monitors, incidents, alerts, a public status page.',
      description:
        `Interface version ${INTERFACE_VERSION} (the API root \`/api/v1\`). Everything the dashboard does is here. ` +
        'Authenticate with `Authorization: Bearer fs_<48 hex>` (an API key with scope read, write or admin) or the ' +
        "owner's `service_session` cookie. Times are RFC 3339 UTC with milliseconds; lists are `{items, next_cursor}`; " +
        `every error is \`{error: {code, message, field?, fields?}}\` (codes: ${Object.keys(ERROR_STATUS).join(', ')}). ` +
        'The full contract: /docs/interface; conventions and decisions: /docs/api.',
      'x-service-version': opts.serviceVersion,
    },
    servers: [{ url: opts.serverUrl.replace(/\/+$/, '') }],
    tags: TAGS,
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'fs_<48 hex>',
          description:
            'An API key. The requirement lists the least scope (`read` < `write` < `admin`) the route needs.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'service_session',
          description:
            "The owner's dashboard session (HttpOnly, Secure, SameSite=Strict); passes every scope check. A cookie request that changes " +
            "something must send `Content-Type: application/json` and `Origin` equal to the dashboard's origin.",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            `1-255 visible ASCII characters. Repeating the same request with the same key within ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours answers ` +
            'the first answer again (header `Idempotent-Replayed: true`) without repeating the work; the same key with another request is 422, ' +
            'a repeat while the first still runs is 409. An answer that held a secret shown once (an API key, a ping URL, recovery codes, ' +
            'authenticator options) is not kept: the work is still done once, and a repeat is 409 `conflict` saying how to get a new secret.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
      },
      responses,
    },
  };
}

/** The shared error answers' statuses (for tests). */
export const ERROR_RESPONSE_STATUS: Record<string, number> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([k, v]) => [k, v.status]),
);
