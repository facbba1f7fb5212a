/**
 * What confirmed subscribers are told, end to end (engine → writer's transaction → queue →
 * dispatcher → a real SMTP server on 127.0.0.1): a public incident opening and ending, a public
 * maintenance window announced once, nothing about private monitors or to pending addresses, the
 * RFC 8058 headers and the body's unsubscribe link, the mail rows committed with the incident
 * before anything is sent, and the daily cap.
 */
import { decodeSubject, headersOf, partOf, SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { SettingsService } from '../../src/settings/settings.service';
import { SubscriberDispatcher } from '../../src/subscribers/subscriber-dispatcher.service';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

describe('status page subscribers: what they are told', () => {
  let t: TestApp;
  let smtp: SmtpServer;
  let target: SwitchServer;
  let admin: string;

  beforeEach(async () => {
    smtp = await startSmtp();
    target = await startSwitchServer();
    t = await startApp({ FARSIGHT_SMTP: smtp.url, FARSIGHT_MAIL_FROM: 'Status <status@farsight.test>' });
    const { cookie } = await createOwner(t);
    admin = await createKey(t, cookie, 'admin');
    await t.http
      .put('/api/v1/status-page')
      .set(bearer(admin))
      .send({ subscribers: true, title: 'Acme status' })
      .expect(200);
    await confirmed('ada@example.com');
    await t.http.post('/api/public/subscribe').send({ email: 'pending@example.com' }).expect(202);
    await sendMail();
    smtp.mails.length = 0;
  });
  afterEach(async () => {
    await t.close();
    await Promise.all([smtp.close(), target.close()]);
  });

  const sendMail = () => t.app.get(SubscriberDispatcher).runDue();
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    const engine = t.app.get(EngineService);
    engine.tick();
    await engine.idle();
    await t.app.get(CheckWriter).flush();
  };
  const subjects = () => smtp.mails.map((m) => decodeSubject(headersOf(m.raw).get('subject') ?? ''));
  const queued = async () =>
    (await t.db.read<{ n: number }[]>('SELECT COUNT(*) AS n FROM subscriber_mail WHERE notice_id IS NOT NULL'))[0].n;

  async function confirmed(email: string): Promise<void> {
    await t.http.post('/api/public/subscribe').send({ email }).expect(202);
    await sendMail();
    const text = partOf(smtp.mails[smtp.mails.length - 1].raw, 'text/plain') ?? '';
    const link = /http:\/\/farsight\.test(\/status\/subscription\/\S+)/.exec(text)?.[1];
    await t.http.get(link ?? '/none').expect(200);
  }

  async function monitor(pub: boolean, name = 'NAS'): Promise<void> {
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(admin))
      .send(httpMonitor({ name, confirm_after: 1, public: pub, public_name: `${name} (public)` }, { url: target.url }))
      .expect(201);
    await advance(0);
  }

  it('tells confirmed subscribers when a public incident opens and ends, with the RFC 8058 headers and a link in the body', async () => {
    await monitor(true);
    target.status = 500;
    await advance(60_000);
    // Durable before announced: the mail row committed with the incident, before anything was sent.
    expect(await queued()).toBe(1);
    expect(smtp.mails).toHaveLength(0);
    await sendMail();
    expect(subjects()).toEqual(['NAS (public) is down']);
    expect(smtp.mails[0].to).toEqual(['ada@example.com']);
    const h = headersOf(smtp.mails[0].raw);
    const unsub = /^<(http:\/\/farsight\.test\/status\/unsubscribe\/[A-Za-z0-9_-]{43})>$/.exec(
      h.get('list-unsubscribe') ?? '',
    );
    expect(unsub).not.toBeNull();
    expect(h.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const text = partOf(smtp.mails[0].raw, 'text/plain') ?? '';
    expect(text).toContain(unsub?.[1]);
    expect(partOf(smtp.mails[0].raw, 'text/html')).toContain(unsub?.[1]);
    // What the status page shows, never the target or the error.
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('500');

    target.status = 200;
    await advance(60_000);
    await sendMail();
    expect(subjects()).toEqual(['NAS (public) is down', 'NAS (public) is back']);
    expect(partOf(smtp.mails[1].raw, 'text/plain')).toMatch(/Down for: 1 min/);

    // One click, and the next incident finds nobody.
    const path = unsub?.[1].replace('http://farsight.test', '') ?? '';
    await t.http.post(path).type('form').send('List-Unsubscribe=One-Click').expect(200);
    target.status = 500;
    await advance(60_000);
    await sendMail();
    expect(smtp.mails).toHaveLength(2);
  });

  it('tells nobody of a private monitor, nor while the page takes no subscribers', async () => {
    await monitor(false, 'Private');
    target.status = 500;
    await advance(60_000);
    await sendMail();
    expect(await queued()).toBe(0);
    target.status = 200;
    await advance(60_000);
    await t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: false }).expect(200);
    await monitor(true, 'Public');
    target.status = 500;
    await advance(60_000);
    await sendMail();
    expect(await queued()).toBe(0);
    expect(smtp.mails).toHaveLength(0);
  });

  it('announces a public maintenance window once, when the status page starts showing it', async () => {
    await monitor(true);
    const start = t.clock.now() + 30 * 3_600_000;
    await t.http
      .post('/api/v1/maintenance')
      .set(bearer(admin))
      .send({
        title: 'Disk swap',
        description: 'New disks for the NAS.',
        announce_h: 24,
        schedule: {
          kind: 'once',
          start: new Date(start).toISOString(),
          end: new Date(start + 3_600_000).toISOString(),
        },
      })
      .expect(201);
    await sendMail();
    // 30 hours ahead, announced 24 hours ahead: not yet.
    expect(smtp.mails).toHaveLength(0);
    t.clock.advance(6 * 3_600_000 + 60_000);
    await sendMail();
    await sendMail();
    expect(subjects()).toEqual(['Planned maintenance: Disk swap']);
    const text = partOf(smtp.mails[0].raw, 'text/plain') ?? '';
    expect(text).toContain('New disks for the NAS.');
    expect(text).toContain('Services: NAS (public)');
    expect(headersOf(smtp.mails[0].raw).get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Active later: the same occurrence is not announced again.
    t.clock.advance(6 * 3_600_000);
    await sendMail();
    expect(smtp.mails).toHaveLength(1);
  });

  it('counts subscriber mail in the daily cap and sends none once it is reached', async () => {
    const before = (await t.app.get(SettingsService).get()).daily_cap;
    expect(before).toBeGreaterThan(2);
    // Sent today: the sign-in notice and two confirmations. One more fits.
    await t.db.tx((m) => t.app.get(SettingsService).setIn(m, { daily_cap: 3 }));
    await monitor(true);
    target.status = 500;
    await advance(60_000);
    await sendMail();
    expect(smtp.mails).toHaveLength(0);
    const [row] = await t.db.read<{ state: string }[]>('SELECT state FROM subscriber_mail WHERE notice_id IS NOT NULL');
    expect(row.state).toBe('failed');
    const deliveries = (await t.http.get('/api/v1/deliveries').set(bearer(admin)).expect(200)).body.items;
    const d = deliveries.find((x: { channel_name: string }) => x.channel_name === 'status page subscribers');
    expect(d).toMatchObject({ ok: false, summary: expect.stringMatching(/^subscriber \d+: notice: opened$/) });
    expect(d.error).toMatch(/daily cap of 3/);
    // The log names subscribers by id, never by address.
    expect(JSON.stringify(deliveries)).not.toContain('ada@example.com');
  });
});
