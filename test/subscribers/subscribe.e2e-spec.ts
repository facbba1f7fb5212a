/**
 * Subscribing to the status page end to end against a real SMTP server on 127.0.0.1: the 202 that
 * never tells known from unknown, the confirmation mail through the queue, the single-use 48 h
 * link (used twice, expired on the fake clock), one-click unsubscribe (RFC 8058) and the page's
 * button, the throttle per address and per network, and hostile bodies that change nothing.
 */
import { partOf, decodeSubject, headersOf, SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { SubscriberDispatcher } from '../../src/subscribers/subscriber-dispatcher.service';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

describe('status page subscribers: subscribe, confirm, unsubscribe', () => {
  let t: TestApp;
  let smtp: SmtpServer;
  let admin: string;
  let n = 0;
  /** A different client network for each test's requests, so the per-network limit is only met where a test means to. */
  let net = () => `198.51.${n}.7`;

  beforeEach(async () => {
    n += 1;
    smtp = await startSmtp();
    t = await startApp({
      FARSIGHT_SMTP: smtp.url,
      FARSIGHT_MAIL_FROM: 'Status <status@farsight.test>',
      FARSIGHT_TRUST_PROXY: 'loopback',
    });
    const { cookie } = await createOwner(t);
    admin = await createKey(t, cookie, 'admin');
    await t.http
      .put('/api/v1/status-page')
      .set(bearer(admin))
      .send({ subscribers: true, title: 'Acme status' })
      .expect(200);
    smtp.mails.length = 0;
    net = () => `198.51.${n}.7`;
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const subscribe = (body: unknown, ip = net()) =>
    t.http
      .post('/api/public/subscribe')
      .set('X-Forwarded-For', ip)
      .send(body as object);
  const send = () => t.app.get(SubscriberDispatcher).runDue();
  const rows = () => t.db.read<{ email: string; state: string }[]>('SELECT email, state FROM subscribers ORDER BY id');
  const linkIn = (raw: string, path: string) => {
    const text = partOf(raw, 'text/plain') ?? '';
    const m = new RegExp(`http://farsight\\.test(/status/${path}/[A-Za-z0-9_-]{43})`).exec(text);
    if (!m) throw new Error(`no ${path} link in:\n${text}`);
    return m[1];
  };

  it('answers 202 with the same body for a new, a pending and a confirmed address, and mails one confirmation link', async () => {
    const first = await subscribe({ email: 'Ada@Example.com' }).expect(202);
    await send();
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0];
    expect(mail.to).toEqual(['ada@example.com']);
    expect(decodeSubject(headersOf(mail.raw).get('subject') ?? '')).toBe('Confirm your subscription to Acme status');
    // The confirmation carries no unsubscribe header: nobody is subscribed yet.
    expect(headersOf(mail.raw).has('list-unsubscribe')).toBe(false);
    const link = linkIn(mail.raw, 'subscription');
    const confirmed = await t.http.get(link).expect(200);
    expect(confirmed.text).toContain('Subscription confirmed');
    expect(confirmed.headers['content-security-policy']).toContain("form-action 'self'");
    expect(await rows()).toEqual([{ email: 'ada@example.com', state: 'confirmed' }]);

    const again = await subscribe({ email: 'ada@example.com' }).expect(202);
    const other = await subscribe({ email: 'nobody@example.net' }).expect(202);
    expect(again.body).toEqual(first.body);
    expect(other.body).toEqual(first.body);
    await send();
    // The confirmed address gets nothing more; the unknown one its confirmation.
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['ada@example.com', 'nobody@example.net']);
  });

  it('says "already used" for a link used twice, and the second click changes nothing', async () => {
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    const link = linkIn(smtp.mails[0].raw, 'subscription');
    await t.http.get(link).expect(200);
    const [before] = await t.db.read<{ confirmed_at: number }[]>('SELECT confirmed_at FROM subscribers');
    t.clock.advance(60_000);
    const second = await t.http.get(link).expect(200);
    expect(second.text).toContain('Link already used');
    const [after] = await t.db.read<{ confirmed_at: number }[]>('SELECT confirmed_at FROM subscribers');
    expect(after.confirmed_at).toBe(before.confirmed_at);
  });

  it('expires the link after 48 hours (410, a page saying so) and a new request mails a new one', async () => {
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    const old = linkIn(smtp.mails[0].raw, 'subscription');
    t.clock.advance(48 * 3_600_000);
    const expired = await t.http.get(old).expect(410);
    expect(expired.text).toContain('Link expired');
    expect(await rows()).toEqual([{ email: 'ada@example.com', state: 'pending' }]);
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    const fresh = linkIn(smtp.mails[1].raw, 'subscription');
    expect(fresh).not.toBe(old);
    // The new link replaced the old one, which now names nobody.
    expect((await t.http.get(old).expect(404)).text).toContain('Link not valid');
    await t.http.get(fresh).expect(200);
  });

  it('forgets an address nobody confirmed within the hour after its link expired', async () => {
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    t.clock.advance(49 * 3_600_000);
    await send();
    expect(await rows()).toEqual([]);
    expect(await t.db.read('SELECT id FROM subscriber_mail')).toEqual([]);
  });

  it('answers an unknown or malformed link with a 404 page, never a 500', async () => {
    for (const token of ['k'.repeat(43), 'short', '%00%0d%0a', 'x'.repeat(5000)])
      expect((await t.http.get(`/status/subscription/${token}`).expect(404)).text).toContain('Link not valid');
  });

  it('unsubscribes by the one-click POST of RFC 8058, and shows a button (not an unsubscribe) on GET', async () => {
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    await t.http.get(linkIn(smtp.mails[0].raw, 'subscription')).expect(200);
    const token = await unsubscribeToken(t);
    const page = await t.http.get(`/status/unsubscribe/${token}`).expect(200);
    expect(page.text).toContain(`action="/status/unsubscribe/${token}"`);
    expect(await rows()).toHaveLength(1);
    const click = await t.http
      .post(`/status/unsubscribe/${token}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(click.text).toBe('unsubscribed\n');
    expect(await rows()).toEqual([]);
    // Again: nothing to do, still a plain 200 (mail clients retry).
    expect(
      (await t.http.post(`/status/unsubscribe/${token}`).type('form').send('List-Unsubscribe=One-Click').expect(200))
        .text,
    ).toBe('not subscribed\n');
    expect((await t.http.get(`/status/unsubscribe/${token}`).expect(200)).text).toContain('Not subscribed');
  });

  it("unsubscribes by the page's button, answering a page", async () => {
    await subscribe({ email: 'ada@example.com' }).expect(202);
    await send();
    await t.http.get(linkIn(smtp.mails[0].raw, 'subscription')).expect(200);
    const token = await unsubscribeToken(t);
    const done = await t.http.post(`/status/unsubscribe/${token}`).type('form').send('from=page').expect(200);
    expect(done.text).toContain('Unsubscribed');
    expect(await rows()).toEqual([]);
  });

  it('takes the plain form of the status page (no JavaScript) and answers a page', async () => {
    const ok = await t.http
      .post('/status/subscribe')
      .set('X-Forwarded-For', net())
      .type('form')
      .send('email=form%40example.com')
      .expect(202);
    expect(ok.text).toContain('Check your inbox');
    expect(await rows()).toEqual([{ email: 'form@example.com', state: 'pending' }]);
    const bad = await t.http
      .post('/status/subscribe')
      .set('X-Forwarded-For', net())
      .type('form')
      .send('email=nope')
      .expect(422);
    expect(bad.text).toContain('Check the address');
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
  });

  it.each<[string, unknown, string]>([
    ['a malformed address', { email: 'not-an-address' }, 'email'],
    ['a 10 KB address', { email: `${'a'.repeat(10_240)}@example.com` }, 'email'],
    ['a CR LF header injection', { email: 'ada@example.com\r\nBcc: all@example.com' }, 'email'],
    ['a LF header injection', { email: 'ada@example.com\nSubject: hi' }, 'email'],
    ['an address as a list', { email: ['ada@example.com'] }, 'email'],
    ['an unknown field', { email: 'ada@example.com', admin: true }, 'admin'],
  ])('refuses %s with a 422 naming the field, and stores and sends nothing', async (_what, body, field) => {
    const res = await subscribe(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    await send();
    expect(await rows()).toEqual([]);
    expect(smtp.mails).toHaveLength(0);
  });

  it('refuses a 10 KB form body with a page, not a 500', async () => {
    const res = await t.http
      .post('/status/subscribe')
      .set('X-Forwarded-For', net())
      .type('form')
      .send(`email=${'a'.repeat(10_240)}%40example.com`)
      .expect(422);
    expect(res.text).toContain('Check the address');
    expect(await rows()).toEqual([]);
  });

  it('limits each address to 3 requests an hour (429 with Retry-After), whatever network asks', async () => {
    for (let i = 0; i < 3; i++) await subscribe({ email: 'ada@example.com' }, `203.0.${i}.1`).expect(202);
    const refused = await subscribe({ email: 'ada@example.com' }, '203.0.200.1').expect(429);
    expect(refused.body.error.code).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(20 * 60_000);
    await subscribe({ email: 'ada@example.com' }, '203.0.201.1').expect(202);
  });

  it.each<[string, (i: number) => string, string]>([
    ['an IPv4 /24', (i) => `192.0.2.${i + 1}`, '192.0.3.1'],
    ['an IPv6 /64', (i) => `2001:db8:0:7::${(i + 1).toString(16)}`, '2001:db8:0:8::1'],
  ])(
    'stops a flood of many addresses from one network (%s) after 10, and only that network',
    async (_what, ipOf, elsewhere) => {
      for (let i = 0; i < 10; i++) await subscribe({ email: `user${i}@example.com` }, ipOf(i)).expect(202);
      await subscribe({ email: 'user10@example.com' }, ipOf(10)).expect(429);
      await subscribe({ email: 'user11@example.com' }, elsewhere).expect(202);
      expect(await rows()).toHaveLength(11);
    },
  );

  it('answers 403 while the page takes no subscribers and 404 while it is not published, in the envelope', async () => {
    await t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: false }).expect(200);
    const off = await subscribe({ email: 'ada@example.com' }).expect(403);
    expect(off.body.error).toMatchObject({ code: 'forbidden' });
    await t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: true, enabled: false }).expect(200);
    expect((await subscribe({ email: 'ada@example.com' }).expect(404)).body.error.code).toBe('not_found');
    expect(await rows()).toEqual([]);
  });
});

/** The unsubscribe token as a mail carries it: read from the sealed column the way the dispatcher does. */
async function unsubscribeToken(t: TestApp): Promise<string> {
  const { SECRET_BOX } = await import('../../src/db/secret-box');
  const box = t.app.get<{ open(v: string): string }>(SECRET_BOX);
  const [row] = await t.db.read<{ unsub_token: string }[]>('SELECT unsub_token FROM subscribers');
  return box.open(row.unsub_token);
}
