/**
 * Fuzzing every route of /api/openapi.json, with every scope (none, read, write, admin, the
 * owner's session), with generated path parameters, queries and bodies (support/hostile.ts: drawn
 * from each route's schema, right or wrong in type, boundary numbers, huge strings, unicode and
 * NUL, deep nesting, prototype keys, duplicate and bracketed query keys, broken JSON).
 *
 * Properties of every answer:
 * - never a 5xx;
 * - an error is the envelope {error: {code, message}} (the heartbeat routes answer plain text);
 * - no stack trace, no ORM or SQLite text;
 * - no secret used by the test (monitor and channel secrets, keys, session, TOTP secret,
 *   recovery codes, heartbeat token), except in `GET /export?secrets=1` to the admin;
 * - the security headers;
 * - a refused request (4xx) changes nothing: the database's rows (volatile "last seen" columns
 *   aside) are the same before and after, and so is GET /export?secrets=1 around each route.
 *
 * Bounded for CI (FUZZ_CASES per route and scope, a few minutes at most); FAULTS_FUZZ_CASES=<n>
 * runs longer, FAULTS_SEED=<n> replays a run. Cases found are kept in REGRESSIONS below.
 */
import type { Response } from 'supertest';
import { SessionsService } from '../../src/auth/sessions/sessions.service';
import { CheckWriter } from '../../src/history/writer';
import { envNumber, Random } from '../faults/support/random';
import { secretsIn } from '../faults/support/service-process';
import { bearer, createKey, createOwner, ORIGIN, OWNER, startApp, TestApp } from '../support/app';
import { Hostile, Schema } from './support/hostile';

const CASES = envNumber('FAULTS_FUZZ_CASES', 4);
const SCOPES = ['none', 'read', 'write', 'admin', 'session'] as const;
type ScopeName = (typeof SCOPES)[number];
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;
const LEAK =
  /\bat [\w.$<>]+ \(|\bat (?:async )?[\w./-]+\.[jt]s:\d+|QueryFailedError|SQLITE_[A-Z]|TypeORM|node_modules|EntityNotFound|Cannot read propert|is not a function|is not defined|ECONNREFUSED/;

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  query: string[];
  body: { type: string; schema?: Schema } | null;
}

interface Sent {
  method: string;
  url: string;
  scope: ScopeName;
  contentType?: string;
  body?: string;
}

function envelopeOf(text: string): { error?: { code?: unknown; message?: unknown; fields?: unknown } } | null {
  try {
    return JSON.parse(text) as { error?: { code?: unknown; message?: unknown; fields?: unknown } };
  } catch {
    return null;
  }
}

/** Requests that once broke a property, replayed first on every run. */
const REGRESSIONS: Sent[] = [];

describe('fuzzing every route of /api/openapi.json', () => {
  const random = Random.fromEnv();
  let t: TestApp;
  let ops: Operation[];
  let schemas: Record<string, Schema>;
  const creds: Record<Exclude<ScopeName, 'none'>, Record<string, string>> = {
    read: {},
    write: {},
    admin: {},
    session: {},
  };
  const secrets: string[] = [];
  const plausible: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    const owner = await createOwner(t);
    creds.session = { Cookie: owner.cookie, Origin: ORIGIN };
    for (const scope of ['read', 'write', 'admin'] as const)
      creds[scope] = bearer(await createKey(t, owner.cookie, scope));
    secrets.push(
      owner.cookie.split('=')[1],
      owner.secret,
      ...owner.codes,
      OWNER.password,
      ...['read', 'write', 'admin'].map((s) => creds[s as 'read'].Authorization.slice(7)),
    );
    const monitor = await t.http
      .post('/api/v1/monitors')
      .set(creds.admin)
      .send({
        name: 'secret target',
        kind: 'http',
        http: {
          url: 'http://127.0.0.1:9/',
          auth: { type: 'bearer', token: 'fuzz-bearer-token-0001' },
          headers: [{ name: 'X-Token', value: 'fuzz-header-secret-0002' }],
        },
      })
      .expect(201);
    await t.http
      .post('/api/v1/channels')
      .set(creds.admin)
      .send({
        kind: 'webhook',
        name: 'hook',
        config: {
          url: 'http://127.0.0.1:9/hook',
          secret: 'fuzz-webhook-secret-0003',
          headers: [{ name: 'X-Auth', value: 'fuzz-webhook-header-0004' }],
        },
      })
      .expect((r: Response) => expect(r.status).toBeLessThan(300));
    await t.http
      .post('/api/v1/channels')
      .set(creds.admin)
      .send({ kind: 'chat', name: 'chat', config: { url: 'http://127.0.0.1:9/chat/fuzz-chat-secret-0005' } })
      .expect((r: Response) => expect(r.status).toBeLessThan(300));
    const hb = await t.http
      .post('/api/v1/monitors')
      .set(creds.admin)
      .send({ name: 'cron', kind: 'heartbeat', interval_s: 3600, heartbeat: { grace_s: 60 } })
      .expect(201);
    secrets.push(
      'fuzz-bearer-token-0001',
      'fuzz-header-secret-0002',
      'fuzz-webhook-secret-0003',
      'fuzz-webhook-header-0004',
      'fuzz-chat-secret-0005',
      new URL(hb.body.heartbeat_url as string).pathname.split('/').pop() as string,
    );
    expect(monitor.body.http.auth.token).toBe('********');
    plausible.push(String(monitor.body.id), String(hb.body.id), `slug:${monitor.body.slug as string}`, '1', '2');

    const doc = await t.http.get('/api/openapi.json').expect(200);
    schemas = doc.body.components.schemas as Record<string, Schema>;
    ops = [];
    for (const [path, item] of Object.entries(
      doc.body.paths as Record<
        string,
        Record<
          string,
          {
            parameters?: { name?: string; in?: string }[];
            requestBody?: { content: Record<string, { schema?: Schema }> };
          }
        >
      >,
    )) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const content = op.requestBody ? Object.entries(op.requestBody.content)[0] : null;
        ops.push({
          method,
          path,
          query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name as string),
          body: content ? { type: content[0], schema: content[1].schema } : null,
        });
      }
    }
  }, 60_000);
  afterAll(() => t?.close());

  /** The rows of every table a request could change, without columns that change by being read. */
  async function fingerprint(): Promise<string> {
    // Settled first: an earlier accepted request's state row is written back with the writer's next
    // batch (engine.service.ts markDirty), which must not be counted against the request after it.
    await t.app.get(CheckWriter).flush();
    const tables: Record<string, string> = {
      monitors: 'SELECT * FROM monitors ORDER BY id',
      monitor_state: 'SELECT * FROM monitor_state ORDER BY monitor_id',
      channels: 'SELECT * FROM channels ORDER BY id',
      settings: 'SELECT * FROM settings ORDER BY key',
      owner: 'SELECT * FROM owner',
      api_keys: 'SELECT id, name, scope, key_hash, expires_at FROM api_keys ORDER BY id',
      // expires_at slides forward whenever the session is used (sessions.service.ts resolve).
      sessions: 'SELECT id, token_hash, fresh_until FROM sessions ORDER BY id',
      recovery_codes: 'SELECT * FROM recovery_codes ORDER BY id',
      passkeys: 'SELECT * FROM passkeys ORDER BY id',
      incidents: 'SELECT * FROM incidents ORDER BY id',
      outbox: 'SELECT id, channel_id, state FROM outbox ORDER BY id',
    };
    const out: Record<string, unknown> = {};
    for (const [name, sql] of Object.entries(tables)) out[name] = await t.db.query(sql);
    return JSON.stringify(out);
  }

  async function exportDoc(): Promise<string> {
    const a = await send({ method: 'GET', url: '/api/v1/export?secrets=1', scope: 'admin' });
    const body = a.body as { exported_at?: string };
    if (a.status !== 200) throw new Error(`GET /export: ${a.status} ${a.text.slice(0, 200)}`);
    return JSON.stringify({ ...body, exported_at: null });
  }

  async function send(r: Sent): Promise<Response> {
    // The per-key limit is 600 a minute on the service's (fake) clock: time passes between requests.
    t.clock.advance(150);
    const m = r.method.toLowerCase() as 'get';
    let req = t.http[m](r.url).timeout(20_000);
    if (r.scope !== 'none') req = req.set(creds[r.scope]);
    if (r.contentType) req = req.set('Content-Type', r.contentType);
    return r.body !== undefined ? req.send(r.body) : req;
  }

  function generate(h: Hostile, op: Operation, scope: ScopeName): Sent {
    const url = op.path.replace(/\{[^}]+\}/g, () => h.pathParam()) + h.query(op.query);
    const sent: Sent = { method: op.method.toUpperCase(), url, scope };
    if (op.body || random.chance(0.2)) {
      if (op.body?.type.startsWith('image/')) {
        sent.contentType =
          op.body.type === 'image/*' ? random.pick(['image/png', 'image/svg+xml', 'image/jpeg']) : op.body.type;
        sent.body = random.pick([
          '\x89PNG\r\n\x1a\n',
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          'x'.repeat(300_000),
          '',
        ]);
      } else if (op.body?.type === 'text/plain') {
        sent.contentType = 'text/plain';
        sent.body = h.string();
      } else {
        sent.contentType = random.pick([
          'application/json',
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
        ]);
        sent.body = h.bodyText(op.body?.schema);
      }
    }
    return sent;
  }

  /** Every property an answer breaks. */
  function judge(r: Sent, a: Response): string[] {
    const out: string[] = [];
    const text = a.text ?? '';
    if (a.status >= 500) out.push(`status ${a.status}`);
    // The documentation names these words (errors, TypeORM); everything else must never show them.
    const documentation = /^\/(api\/openapi\.json|docs|llms\.txt)/.test(r.url);
    if (!documentation && LEAK.test(text))
      out.push(`stack or ORM text: ${(LEAK.exec(text) ?? [''])[0]} in ${text.slice(0, 200)}`);
    // The API answers errors in the envelope; the heartbeat routes (and Kuma's push URL, answered
    // like them: docs/import-kuma.md) in plain text for shell scripts; pages (/docs, /status) with an HTML page.
    const api = r.url.startsWith('/api/');
    const page = !api && String(a.headers['content-type']).startsWith('text/html');
    const plain = r.url.startsWith('/hb/') || r.url.startsWith('/api/push/');
    // A badge's 404 is the grey "unknown" badge itself, as the extensions say (docs/badges.md).
    const unknownBadge = r.url.startsWith('/badge/') && a.status === 404;
    if (a.status >= 400 && !plain && !page && !unknownBadge && r.method !== 'HEAD') {
      const body = envelopeOf(text);
      if (!body?.error || typeof body.error.code !== 'string' || typeof body.error.message !== 'string')
        out.push(`not the error envelope: ${text.slice(0, 200)}`);
      else if (a.status === 422 && !Array.isArray(body.error.fields)) out.push('422 without fields');
    }
    const exportWithSecrets =
      r.url.startsWith('/api/v1/export') && /secrets=/.test(r.url) && (r.scope === 'admin' || r.scope === 'session');
    if (!exportWithSecrets) {
      const leaked = secretsIn(text, secrets);
      if (leaked.length) out.push(`secret in the answer: ${leaked.join(', ')}`);
    }
    if (
      !/frame-ancestors 'none'/.test(String(a.headers['content-security-policy'])) ||
      a.headers['x-content-type-options'] !== 'nosniff'
    )
      out.push('security headers missing');
    return out;
  }

  it(
    `keeps every property over ${CASES} cases per route and scope (seed printed)`,
    async () => {
      process.stdout.write(`fuzz: seed ${random.seed}, ${ops.length} operations, ${CASES} cases per scope\n`);
      const h = new Hostile(random, schemas, plausible);
      const failures: string[] = [];
      let requests = 0;
      let refused = 0;
      const statuses: Record<number, number> = {};
      const check = async (r: Sent) => {
        const before = await fingerprint();
        let a: Response;
        try {
          a = await send(r);
        } catch (err) {
          failures.push(
            `${r.scope} ${r.method} ${r.url.slice(0, 150)}: no answer (${err instanceof Error ? err.message : String(err)})`,
          );
          return;
        }
        requests++;
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        const broken = judge(r, a);
        if (a.status >= 400 && a.status < 500) {
          refused++;
          if ((await fingerprint()) !== before) broken.push(`refused with ${a.status} but changed the database`);
        }
        if (broken.length && failures.length < 30)
          failures.push(
            `${r.scope} ${r.method} ${r.url.slice(0, 150)} [${r.contentType ?? ''}] ${(r.body ?? '').slice(0, 120)} -> ${a.status}: ${broken.join('; ')}`,
          );
      };

      for (const r of REGRESSIONS) await check(r);
      // Sign-in routes last: failed sign-ins block the address, which would only make them answer sooner.
      const ordered = [...ops].sort((a, b) => Number(a.path.includes('/auth/')) - Number(b.path.includes('/auth/')));
      for (const op of ordered) {
        const exportBefore = await exportDoc();
        let anyAccepted = false;
        for (const scope of SCOPES) {
          // The stream never ends for a caller it lets in; it is fuzzed unauthenticated only (test/stream/stream.e2e-spec.ts covers the rest).
          if (op.path === '/api/v1/stream' && scope !== 'none') continue;
          for (let k = 0; k < CASES; k++) {
            const r = generate(h, op, scope);
            const n = requests;
            const refusedBefore = refused;
            await check(r);
            if (requests > n && refused === refusedBefore) anyAccepted = true;
          }
        }
        if (!anyAccepted && (await exportDoc()) !== exportBefore)
          failures.push(`${op.method.toUpperCase()} ${op.path}: every request was refused, yet GET /export changed`);
        await keepCredentials();
      }
      process.stdout.write(
        `fuzz: ${JSON.stringify({ seed: random.seed, operations: ops.length, requests, refused, statuses })}\n`,
      );
      expect(failures).toEqual([]);
    },
    15 * 60_000,
  );

  /** A fuzzed request may sign the session out or revoke a key (hostile ids can be real ones): make new ones. */
  async function keepCredentials(): Promise<void> {
    const me = await t.http.get('/api/v1/summary').set(creds.session);
    if (me.status !== 200) {
      // A new session as a sign-in makes one (the sign-in routes themselves are fuzzed like the rest).
      const session = await t.app.get(SessionsService).create('password', null, null);
      creds.session = { Cookie: `service_session=${session.token}`, Origin: ORIGIN };
      secrets.push(session.token);
    }
    for (const scope of ['read', 'write', 'admin'] as const) {
      const ok = await t.http.get('/api/v1/summary').set(creds[scope]);
      if (ok.status === 401) {
        creds[scope] = bearer(await createKey(t, creds.session.Cookie, scope));
        secrets.push(creds[scope].Authorization.slice(7));
      }
    }
  }
});
