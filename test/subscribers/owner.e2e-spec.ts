/**
 * The owner's side of subscribers: GET /subscribers and DELETE /subscribers/{id} for admin keys
 * and sessions only, paged like every list; addresses in an export only with ?secrets=1, and an
 * import that adds confirmed addresses, leaves pending and stored ones, and refuses bad ones.
 */
import { SmtpServer, startSmtp, partOf } from '../../harness/servers/smtp-farm';
import { SubscriberDispatcher } from '../../src/subscribers/subscriber-dispatcher.service';
import { TestApp, bearer, createKey, createOwner, ORIGIN, startApp } from '../support/app';

describe('status page subscribers: the owner', () => {
  let t: TestApp;
  let smtp: SmtpServer;
  let admin: string;
  let cookie: string;

  beforeEach(async () => {
    smtp = await startSmtp();
    t = await startApp({ FARSIGHT_SMTP: smtp.url });
    ({ cookie } = await createOwner(t));
    admin = await createKey(t, cookie, 'admin');
    await t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: true }).expect(200);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
      await t.http.post('/api/public/subscribe').send({ email }).expect(202);
    await t.app.get(SubscriberDispatcher).runDue();
    // b confirms.
    const mail = smtp.mails.find((m) => m.to[0] === 'b@example.com');
    const link = /http:\/\/farsight\.test(\/status\/subscription\/\S+)/.exec(
      partOf(mail?.raw ?? '', 'text/plain') ?? '',
    );
    await t.http.get(link?.[1] ?? '/none').expect(200);
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  it('lists subscribers newest first with their state, a page at a time', async () => {
    const first = await t.http.get('/api/v1/subscribers?limit=2').set(bearer(admin)).expect(200);
    expect(first.body.items.map((s: { email: string }) => s.email)).toEqual(['c@example.com', 'b@example.com']);
    expect(first.body.items[1]).toEqual({
      id: expect.any(Number),
      email: 'b@example.com',
      state: 'confirmed',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      confirmed_at: expect.stringMatching(/Z$/),
    });
    expect(first.body.items[0]).toMatchObject({ state: 'pending', confirmed_at: null });
    const next = await t.http
      .get(`/api/v1/subscribers?limit=2&before=${first.body.next_cursor}`)
      .set(bearer(admin))
      .expect(200);
    expect(next.body).toEqual({ items: [expect.objectContaining({ email: 'a@example.com' })], next_cursor: null });
    await t.http.get('/api/v1/subscribers?limit=0').set(bearer(admin)).expect(422);
    await t.http.get('/api/v1/subscribers?before=x').set(bearer(admin)).expect(422);
  });

  it.each(['read', 'write'] as const)(
    'refuses a %s key the list and the removal (403), and changes nothing',
    async (scope) => {
      const key = await createKey(t, cookie, scope);
      expect((await t.http.get('/api/v1/subscribers').set(bearer(key)).expect(403)).body.error.code).toBe('forbidden');
      const [{ id }] = (await t.http.get('/api/v1/subscribers').set(bearer(admin))).body.items;
      await t.http.delete(`/api/v1/subscribers/${id}`).set(bearer(key)).expect(403);
      expect((await t.http.get('/api/v1/subscribers').set(bearer(admin))).body.items).toHaveLength(3);
    },
  );

  it('lets the owner session list and remove, with a timeline line naming the id only; a second delete is 404', async () => {
    const list = await t.http.get('/api/v1/subscribers').set('Cookie', cookie).expect(200);
    const b = list.body.items.find((s: { email: string }) => s.email === 'b@example.com');
    await t.http
      .delete(`/api/v1/subscribers/${b.id}`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .set('Content-Type', 'application/json')
      .expect(204);
    const after = (await t.http.get('/api/v1/subscribers').set(bearer(admin))).body.items;
    expect(after.map((s: { email: string }) => s.email)).toEqual(['c@example.com', 'a@example.com']);
    await t.http.delete(`/api/v1/subscribers/${b.id}`).set(bearer(admin)).expect(404);
    await t.http.delete('/api/v1/subscribers/abc').set(bearer(admin)).expect(404);
    const events = (await t.http.get('/api/v1/events?kind=status_page_updated').set(bearer(admin))).body.items;
    expect(events[0].text).toBe(`subscriber ${b.id} removed`);
    expect(JSON.stringify(events)).not.toContain('b@example.com');
  });

  it('exports addresses only with ?secrets=1, and an import adds confirmed ones only', async () => {
    const masked = (await t.http.get('/api/v1/export').set(bearer(admin)).expect(200)).body;
    expect(masked).not.toHaveProperty('subscribers');
    expect(JSON.stringify(masked)).not.toContain('@example.com');
    const full = (await t.http.get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    expect(full.subscribers.map((s: { email: string; state: string }) => [s.email, s.state])).toEqual([
      ['a@example.com', 'pending'],
      ['b@example.com', 'confirmed'],
      ['c@example.com', 'pending'],
    ]);

    const other = await startApp({});
    try {
      const owner = await createOwner(other);
      const key = await createKey(other, owner.cookie, 'admin');
      const doc = {
        ...full,
        subscribers: [...full.subscribers, { email: 'D@Example.com', state: 'confirmed', confirmed_at: null }],
      };
      const dry = await other.http.post('/api/v1/import').set(bearer(key)).send(doc).expect(200);
      expect(dry.body).toMatchObject({ applied: false, subscribers: { added: 2, errors: [] } });
      const done = await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({ ...doc, dry_run: false })
        .expect(200);
      expect(done.body).toMatchObject({ applied: true, subscribers: { added: 2, errors: [] } });
      const listed = (await other.http.get('/api/v1/subscribers').set(bearer(key))).body.items;
      expect(listed.map((s: { email: string; state: string }) => [s.email, s.state])).toEqual([
        ['d@example.com', 'confirmed'],
        ['b@example.com', 'confirmed'],
      ]);
      // Again: stored addresses stay as they are.
      const again = await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({ ...doc, dry_run: false })
        .expect(200);
      expect(again.body.subscribers).toEqual({ added: 0, errors: [] });

      const bad = await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({
          ...doc,
          dry_run: false,
          subscribers: [
            { email: 'x@example.com\r\nBcc: y@example.com', state: 'confirmed' },
            { email: 'ok@example.com', state: 'maybe' },
          ],
        })
        .expect(200);
      expect(bad.body).toMatchObject({ applied: false });
      expect(bad.body.subscribers.errors.map((e: { field: string }) => e.field)).toEqual([
        'subscribers[0].email',
        'subscribers[1].state',
      ]);
      expect((await other.http.get('/api/v1/subscribers').set(bearer(key))).body.items).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
