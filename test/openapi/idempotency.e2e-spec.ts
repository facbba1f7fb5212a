/**
 * Idempotency-Key works on every POST: the interceptor is global (app.module APP_INTERCEPTOR), so
 * this walks every POST route the running app registers, whatever module added it (a route added
 * later is walked too), and checks that a repeat with the same key answers the first answer
 * again, marked `Idempotent-Replayed`, or, when that answer held a secret shown once, a 409 that
 * says so, with the secret kept nowhere. Then, for the routes that create or act, that the work is
 * not done twice and the replayed status is the status the first answer had.
 */
import type { Test } from 'supertest';
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { appRoutes, AppRoute } from './app-routes';
import { Receiver, startReceiver } from '../../harness/servers/receivers';

/** Routes whose success answers hold a secret shown once (and that the walk's empty body reaches). */
const SHOWN_ONCE = new Set(['/api/v1/me/recovery-codes', '/api/v1/me/totp/options']);

describe('Idempotency-Key on every POST route', () => {
  let t: TestApp;
  let cookie: string;
  let admin: string;
  let receiver: Receiver;
  let posts: AppRoute[];

  beforeAll(async () => {
    t = await startApp();
    receiver = await startReceiver();
    ({ cookie } = await createOwner(t));
    admin = await createKey(t, cookie, 'admin');
    posts = appRoutes(t.app).filter((r) => r.method === 'POST');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /**
   * Signed-in routes are called with the owner's session (it passes every scope and session-only
   * rule, and has just signed in, so step-up passes); public routes with an admin key, which gives
   * them a caller to keep the key for (without any caller there is nothing to scope a key to, see
   * docs/api.md). Logout ends a session, so it is called with the key too.
   */
  const post = (r: AppRoute, url: string): Test => {
    const req = t.http.post(url);
    return r.handler?.access.public ? req.set(bearer(admin)) : req.set('Cookie', cookie).set('Origin', ORIGIN);
  };

  it("finds the POST routes through the app's own router", () => {
    expect(posts.length).toBeGreaterThanOrEqual(14);
    expect(posts.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/v1/monitors', '/api/v1/channels', '/api/v1/keys', '/api/v1/auth/logout']),
    );
  });

  it('has no POST handler that writes its answer itself, past the interceptor that keeps it', () => {
    // A @NeverReplayed route is not kept by the interceptor at all: the status page's forms answer
    // pages themselves (browsers send no Idempotency-Key; docs/subscribers.md).
    const past = posts.filter((r) => !r.handler || (r.handler.writesItself && !r.handler.neverReplayed));
    expect(past.map((r) => r.path)).toEqual([]);
  });

  it('answers a repeat of every POST route with the first answer, marked Idempotent-Replayed', async () => {
    const wrong: string[] = [];
    const refused: string[] = [];
    for (const [i, r] of posts.entries()) {
      // Path parameters name nothing that exists: each route answers (and keeps) a 4xx without changing anything.
      const url = r.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? '999999' : `no-such-${name}`));
      const key = `walk-${i}`;
      const first = await post(r, url).set('Idempotency-Key', key).send({});
      const again = await post(r, url).set('Idempotency-Key', key).send({});
      const where = `POST ${r.path} (${first.status})`;
      if (first.status >= 500 || first.status === 429) wrong.push(`${where}: the walk needs an answer that is kept`);
      if (first.headers['idempotent-replayed'] !== undefined)
        wrong.push(`${where}: the first answer is marked as replayed`);
      if (r.handler?.neverReplayed) {
        // Requests carrying passwords or codes: not even their hash sits in the idempotency table (docs/api.md).
        if (again.headers['idempotent-replayed'] !== undefined)
          wrong.push(`${where}: a @NeverReplayed route was replayed`);
        continue;
      }
      if (again.headers['idempotent-replayed'] !== 'true') wrong.push(`${where}: the repeat was not replayed`);
      if (SHOWN_ONCE.has(r.path) && first.status < 300) {
        // The walk's empty bodies succeed here: the answer held secrets, so a repeat is refused (docs/api.md).
        if (again.status !== 409 || again.body.error?.code !== 'conflict')
          wrong.push(`${where}: the repeat answered ${again.status}, not the 409 refusal`);
        refused.push(r.path);
        const kept = JSON.stringify(await t.db.query('SELECT body FROM idempotency WHERE key = ?', [key]));
        for (const v of Object.values(first.body as Record<string, unknown>).flat()) {
          if (typeof v === 'string' && kept.includes(v))
            wrong.push(`${where}: the idempotency table holds ${v.slice(0, 12)}…`);
        }
        continue;
      }
      if (again.status !== first.status || JSON.stringify(again.body) !== JSON.stringify(first.body)) {
        wrong.push(`${where}: the repeat answered ${again.status} ${JSON.stringify(again.body)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused.sort()).toEqual([...SHOWN_ONCE].sort());
  });

  it('does the work once and replays the status it had, for routes that create or act', async () => {
    const session = (url: string) => t.http.post(url).set('Cookie', cookie).set('Origin', ORIGIN);
    const twice = async (url: string, body: object, key: string) => {
      const first = await session(url).set('Idempotency-Key', key).send(body);
      const again = await session(url).set('Idempotency-Key', key).send(body);
      expect({ url, status: again.status, body: again.body, replayed: again.headers['idempotent-replayed'] }).toEqual({
        url,
        status: first.status,
        body: first.body,
        replayed: 'true',
      });
      return first;
    };
    const count = async (path: string) =>
      (await t.http.get(path).set(bearer(admin)).expect(200)).body.items.length as number;

    const monitor = await twice('/api/v1/monitors', httpMonitor({}, { url: `${receiver.origin}/` }), 'create-monitor');
    expect(monitor.status).toBe(201);
    expect(await count('/api/v1/monitors')).toBe(1);
    expect(
      (
        await twice(
          '/api/v1/monitors/bulk',
          { monitors: [httpMonitor({ name: 'Second' }, { url: `${receiver.origin}/` })] },
          'bulk',
        )
      ).status,
    ).toBe(200);
    expect(await count('/api/v1/monitors')).toBe(2);
    expect((await twice(`/api/v1/monitors/${monitor.body.id}/pause`, {}, 'pause')).status).toBe(200);
    expect((await twice(`/api/v1/monitors/${monitor.body.id}/check`, {}, 'check')).status).toBe(200);

    const channel = await twice(
      '/api/v1/channels',
      { kind: 'webhook', name: 'Hook', config: { url: `${receiver.origin}/hook`, secret: 'a-signing-secret-1234' } },
      'create-channel',
    );
    expect(channel.status).toBe(201);
    expect(await count('/api/v1/channels')).toBe(1);
    const sent = receiver.received.length;
    expect((await twice(`/api/v1/channels/${channel.body.id}/test`, {}, 'test-channel')).status).toBe(200);
    expect(receiver.received.length).toBe(sent + 1);

    // An answer with a secret shown once: the work is done once, a repeat is refused (docs/api.md).
    const keysBefore = await count('/api/v1/keys');
    const key = await session('/api/v1/keys')
      .set('Idempotency-Key', 'create-key')
      .send({ name: 'ci', scope: 'read' })
      .expect(201);
    const refused = await session('/api/v1/keys')
      .set('Idempotency-Key', 'create-key')
      .send({ name: 'ci', scope: 'read' })
      .expect(409);
    expect(refused.headers['idempotent-replayed']).toBe('true');
    expect(refused.body.error.message).toContain(`DELETE /api/v1/keys/${key.body.id}`);
    expect(await count('/api/v1/keys')).toBe(keysBefore + 1);
  });
});
