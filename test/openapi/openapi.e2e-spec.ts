/**
 * GET /api/openapi.json is complete and true: every route the app registers is in it and every
 * route in it is registered (both ways, strictly), each route's access and success status match
 * its handler, every route of the specification is in it, and it passes the OpenAPI 3.1 lint.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startApp, TestApp } from '../support/app';
import { appRoutes, AppRoute } from './app-routes';
import { lintOpenApi } from './lint';
import { specRoutes } from './spec-routes';

type Op = Record<string, unknown> & {
  operationId: string;
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
};
type Doc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Op>>;
  servers: { url: string }[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

function operations(doc: Doc): { method: string; path: string; op: Op }[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path: p, op: item[m] })),
  );
}

describe('the route description (GET /api/openapi.json)', () => {
  let t: TestApp;
  let doc: Doc;
  let routes: AppRoute[];
  const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

  beforeAll(async () => {
    t = await startApp();
    const res = await t.http.get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as Doc;
    routes = appRoutes(t.app);
  });
  afterAll(() => t.close());

  it('is public OpenAPI 3.1 declaring interface version 1 and the running service', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1');
    expect(doc.info['x-service-version']).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers).toEqual([{ url: 'http://farsight.test' }]);
  });

  it('passes the OpenAPI 3.1 structure checks with no problem', () => {
    expect(lintOpenApi(doc as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('documents every route the app registers', () => {
    const documented = new Set(operations(doc).map(key));
    expect(routes.map(key).filter((k) => !documented.has(k))).toEqual([]);
  });

  it('registers every route it documents (heartbeat pings are answered ahead of the framework)', () => {
    const registered = new Set(routes.map(key));
    const missing = operations(doc)
      .filter((o) => !o.op['x-served-ahead'] && !registered.has(key(o)))
      .map(key);
    expect(missing).toEqual([]);
  });

  it('answers the routes it documents as served ahead of the framework, in plain text', async () => {
    const ahead = operations(doc).filter((o) => o.op['x-served-ahead']);
    expect(ahead.map(key).sort()).toEqual([
      'GET /api/push/{token}',
      'GET /hb/{token}',
      'HEAD /api/push/{token}',
      'HEAD /hb/{token}',
      'POST /api/push/{token}',
      'POST /hb/{token}',
      'POST /hb/{token}/fail',
    ]);
    for (const o of ahead) {
      const url = o.path.replace('{token}', 'no-such-token');
      const res = await t.http[o.method.toLowerCase() as 'get' | 'post' | 'head'](url);
      expect([o.method, url, res.status, res.headers['content-type']]).toEqual([
        o.method,
        url,
        404,
        expect.stringMatching(/^text\/plain/),
      ]);
      expect(o.op.responses['404']).toBeDefined();
    }
  });

  it('has a Nest handler for every registered route', () => {
    expect(routes.filter((r) => !r.handler).map(key)).toEqual([]);
  });

  it('gives each route the access its handler declares (@Public, @Scope, @SessionOnly, @StepUp)', () => {
    const byKey = new Map(operations(doc).map((o) => [key(o), o.op]));
    const wrong: string[] = [];
    for (const r of routes) {
      const op = byKey.get(key(r));
      if (!op || !r.handler) continue;
      const a = r.handler.access;
      const want = a.public ? 'public' : a.sessionOnly ? 'session' : a.scope;
      if (op['x-scope'] !== want) wrong.push(`${key(r)}: documented ${String(op['x-scope'])}, handler ${want}`);
      if (!a.public && Boolean(op['x-step-up']) !== a.stepUp)
        wrong.push(`${key(r)}: step-up documented ${Boolean(op['x-step-up'])}, handler ${a.stepUp}`);
      const security = JSON.stringify(op.security);
      const expected = a.public
        ? '[]'
        : a.sessionOnly
          ? '[{"session":[]}]'
          : JSON.stringify([{ apiKey: [a.scope] }, { session: [] }]);
      if (security !== expected) wrong.push(`${key(r)}: security ${security}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('documents the success status each handler answers with', () => {
    const byKey = new Map(operations(doc).map((o) => [key(o), o.op]));
    const wrong: string[] = [];
    for (const r of routes) {
      const op = byKey.get(key(r));
      if (!op || !r.handler || r.handler.usesResponse) continue;
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      if (!success.includes(String(r.handler.status)))
        wrong.push(`${key(r)}: handler answers ${r.handler.status}, documented ${success.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it("covers every route of the specification's Endpoints tables", () => {
    const spec = specRoutes(fs.readFileSync(path.resolve(__dirname, '../../docs/interface.md'), 'utf8'));
    expect(spec.length).toBeGreaterThan(90);
    const documented = new Set(operations(doc).map(key));
    expect(spec.map(key).filter((k) => !documented.has(k))).toEqual([]);
  });

  it('marks every route beyond the specification as extra, saying why', () => {
    const spec = new Set(
      specRoutes(fs.readFileSync(path.resolve(__dirname, '../../docs/interface.md'), 'utf8')).map(key),
    );
    const unmarked = operations(doc)
      .filter((o) => !spec.has(key(o)) && !o.op['x-extra'])
      .map(key);
    expect(unmarked).toEqual([]);
    const marked = operations(doc).filter((o) => o.op['x-extra']);
    for (const o of marked)
      expect([key(o), o.op.description]).toEqual([
        key(o),
        expect.stringContaining("Not in the specification's tables"),
      ]);
  });

  it('states scopes as security requirements and step-up as x-step-up', () => {
    const op = (m: string, p: string) => doc.paths[p][m];
    expect(op('delete', '/api/v1/monitors/{id}')).toMatchObject({
      security: [{ apiKey: ['write'] }, { session: [] }],
      'x-scope': 'write',
      'x-step-up': true,
    });
    expect(op('get', '/api/v1/monitors')).toMatchObject({
      security: [{ apiKey: ['read'] }, { session: [] }],
      'x-scope': 'read',
    });
    expect(op('post', '/api/v1/keys')).toMatchObject({
      security: [{ session: [] }],
      'x-scope': 'session',
      'x-step-up': true,
    });
    expect(op('get', '/api/health')).toMatchObject({ security: [], 'x-scope': 'public' });
    expect(doc).toMatchObject({
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: 'service_session' },
        },
      },
    });
  });

  it('shares the error envelope and offers Idempotency-Key on every authenticated POST', () => {
    const refs = (o: Op) => JSON.stringify(o.responses);
    for (const o of operations(doc)) {
      if (!o.op['x-served-ahead'])
        expect([key(o), refs(o.op)]).toEqual([key(o), expect.stringContaining('#/components/responses/Error')]);
      const idem = JSON.stringify(o.op.parameters ?? []).includes('#/components/parameters/IdempotencyKey');
      expect([key(o), idem]).toEqual([key(o), o.method === 'POST' && o.op['x-scope'] !== 'public']);
    }
  });
});
