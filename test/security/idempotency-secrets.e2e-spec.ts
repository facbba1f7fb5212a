/**
 * Secrets shown once never sit in the idempotency table (issue 42): the dashboard sends an
 * Idempotency-Key on every POST, and a kept answer holding an API key, a heartbeat ping URL,
 * recovery codes or an authenticator secret would be readable from the database for 24 hours and
 * handed out again to a repeat. The work is still done once; a repeat is refused with a 409 that
 * says which secret was not kept and how to get a new one (docs/api.md, "Idempotency").
 */
import type { Test } from 'supertest';
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, tcpMonitor } from '../support/monitors';

const API = '/api/v1';

describe('Idempotency-Key on answers that carry a secret shown once', () => {
  let t: TestApp;
  let cookie: string;
  let write: string;

  beforeAll(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    write = await createKey(t, cookie, 'write');
  });
  afterAll(async () => {
    await t.close();
  });

  const asOwner = (path: string): Test => t.http.post(`${API}${path}`).set('Cookie', cookie).set('Origin', ORIGIN);
  const asKey = (path: string): Test => t.http.post(`${API}${path}`).set(bearer(write));
  const table = async (): Promise<string> => JSON.stringify(await t.db.query('SELECT * FROM idempotency'));
  const count = async (sql: string): Promise<number> => (await t.db.query<{ n: number }[]>(sql))[0].n;
  const monitorId = async (): Promise<number> =>
    (
      await asKey('/monitors')
        .send(heartbeatMonitor({ name: `Job ${Math.random()}` }))
        .expect(201)
    ).body.id;

  interface Case {
    /** Sends the request (the same one each time it is called). */
    send: (key: string) => Test;
    /** The secrets in the first answer: none may be in the idempotency table. */
    secrets: (body: Record<string, unknown>) => string[];
    /** Counts what the work makes, to see a repeat does not do it again. */
    made: () => Promise<number>;
    /** What the refusal names: the withheld fields and how to get a new secret. */
    says: RegExp[];
  }

  const urlToken = (url: unknown): string => String(url).split('/hb/')[1];

  const cases: Record<string, () => Promise<Case>> = {
    'POST /monitors (a heartbeat monitor)': async () => {
      const body = heartbeatMonitor({ name: 'Nightly job' });
      return {
        send: (key) => asKey('/monitors').set('Idempotency-Key', key).send(body),
        secrets: (b) => [String(b.heartbeat_url), urlToken(b.heartbeat_url)],
        made: () => count('SELECT COUNT(*) AS n FROM monitors'),
        says: [/heartbeat_url/, /POST \/api\/v1\/monitors\/\d+\/heartbeat-token/],
      };
    },
    'POST /monitors/{id}/heartbeat-token': async () => {
      const id = await monitorId();
      return {
        send: (key) => asKey(`/monitors/${id}/heartbeat-token`).set('Idempotency-Key', key).send({}),
        secrets: (b) => [String(b.heartbeat_url), urlToken(b.heartbeat_url)],
        made: () =>
          count(`SELECT COUNT(*) AS n FROM events WHERE monitor_id = ${id} AND text LIKE '%new heartbeat URL%'`),
        says: [/heartbeat_url/, new RegExp(`POST /api/v1/monitors/${id}/heartbeat-token`)],
      };
    },
    'POST /keys': async () => ({
      send: (key) => asOwner('/keys').set('Idempotency-Key', key).send({ name: 'ci', scope: 'read' }),
      secrets: (b) => [String(b.key)],
      made: () => count('SELECT COUNT(*) AS n FROM api_keys'),
      says: [/\bkey\b/, /DELETE \/api\/v1\/keys\/\d+/],
    }),
    'POST /me/recovery-codes': async () => ({
      send: (key) => asOwner('/me/recovery-codes').set('Idempotency-Key', key).send({}),
      secrets: (b) => b.codes as string[],
      made: () => count("SELECT COUNT(*) AS n FROM events WHERE kind = 'recovery_codes'"),
      says: [/codes/, /POST \/api\/v1\/me\/recovery-codes/],
    }),
    'POST /me/totp/options': async () => ({
      send: (key) => asOwner('/me/totp/options').set('Idempotency-Key', key).send({}),
      secrets: (b) => [String(b.secret), String(b.uri)],
      made: async () => 0,
      says: [/secret/, /POST \/api\/v1\/me\/totp\/options/],
    }),
  };

  it.each(Object.keys(cases))(
    '%s: does the work once, keeps no secret, and refuses a repeat with 409',
    async (name) => {
      const c = await cases[name]();
      const key = `once${name.replace(/\W+/g, '-')}`;
      const before = await c.made();
      const first = await c.send(key);
      expect(first.status).toBeLessThan(300);
      const secrets = c.secrets(first.body);
      expect(secrets.every((s) => s.length >= 10)).toBe(true);
      const made = await c.made();

      const stored = await table();
      expect(stored).toContain(key);
      for (const s of secrets) expect(stored).not.toContain(s);

      const again = await c.send(key);
      expect(again.status).toBe(409);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(Object.keys(again.body)).toEqual(['error']);
      expect(again.body.error.code).toBe('conflict');
      for (const words of c.says) expect(again.body.error.message).toMatch(words);
      expect(JSON.stringify(again.body)).not.toContain(secrets[secrets.length - 1]);
      expect(await c.made()).toBe(made);
      if (name !== 'POST /me/totp/options') expect(made).toBe(before + 1);
    },
  );

  it('leaves the first ping URL working, and rotates it once for a repeated request', async () => {
    const first = await asKey('/monitors')
      .set('Idempotency-Key', 'hb-works')
      .send(heartbeatMonitor({ name: 'Backup' }))
      .expect(201);
    await asKey('/monitors')
      .set('Idempotency-Key', 'hb-works')
      .send(heartbeatMonitor({ name: 'Backup' }))
      .expect(409);
    expect((await t.http.get(new URL(first.body.heartbeat_url).pathname).expect(200)).text).toBe('OK\n');
    await asKey(`/monitors/${first.body.id}/heartbeat-token`).set('Idempotency-Key', 'hb-works-2').send({}).expect(200);
    const rotate = await asKey(`/monitors/${first.body.id}/heartbeat-token`)
      .set('Idempotency-Key', 'hb-works-2')
      .send({})
      .expect(409);
    expect(rotate.body.error.message).toContain('was done');
    expect(
      await count(
        `SELECT COUNT(*) AS n FROM events WHERE monitor_id = ${first.body.id} AND text LIKE '%new heartbeat URL%'`,
      ),
    ).toBe(1);
  });

  it('still replays a monitor answer without a secret, as it was', async () => {
    const a = await asKey('/monitors')
      .set('Idempotency-Key', 'tcp-1')
      .send(tcpMonitor({ name: 'Db' }))
      .expect(201);
    const b = await asKey('/monitors')
      .set('Idempotency-Key', 'tcp-1')
      .send(tcpMonitor({ name: 'Db' }))
      .expect(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });

  it('replays a refused request as it was (nothing secret was made)', async () => {
    const a = await asOwner('/keys').set('Idempotency-Key', 'bad-key').send({ name: '', scope: 'read' }).expect(422);
    const b = await asOwner('/keys').set('Idempotency-Key', 'bad-key').send({ name: '', scope: 'read' }).expect(422);
    expect(b.body).toEqual(a.body);
  });
});
