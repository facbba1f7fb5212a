/**
 * Email alerts through the whole pipeline (engine → outbox → dispatcher → mail path) against
 * real SMTP servers on loopback: the fallback provider when the first one refuses, and the daily
 * cap pausing email with one notice on the other channels.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { MailService } from '../../src/mail/mail.service';
import { SettingsService } from '../../src/settings/settings.service';
import { decodeSubject, headersOf, SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

describe('email alerts', () => {
  let t: TestApp;
  let primary: SmtpServer;
  let fallback: SmtpServer;
  let target: SwitchServer;
  let admin: string;
  let write: string;

  beforeEach(async () => {
    // The first provider refuses every recipient for now (a 4xx: retryable), the second takes mail.
    primary = await startSmtp({ rcpt: { code: 451, message: 'try again later' } });
    fallback = await startSmtp();
    target = await startSwitchServer();
    t = await startApp({
      FARSIGHT_SMTP: primary.url,
      FARSIGHT_SMTP_FALLBACK: fallback.url,
      FARSIGHT_MAIL_FROM: 'Farsight <alerts@farsight.test>',
    });
    const { cookie } = await createOwner(t);
    admin = await createKey(t, cookie, 'admin');
    write = await createKey(t, cookie, 'write');
    // Setup signed the owner in, and every sign-in is mailed: that notice took the fallback too.
    expect(fallback.mails).toHaveLength(1);
    fallback.mails.length = 0;
  });
  afterEach(async () => {
    await t.close();
    await Promise.all([primary.close(), fallback.close(), target.close()]);
  });

  const advance = async (ms: number) => {
    t.clock.advance(ms);
    const engine = t.app.get(EngineService);
    engine.tick();
    await engine.idle();
    await t.app.get(CheckWriter).flush();
    await t.app.get(DispatcherService).runDue();
  };
  const deliveries = async () => (await t.http.get('/api/v1/deliveries').set(bearer(admin)).expect(200)).body.items;

  it('mails the owner a notice of the sign-in at setup, recorded in the delivery log without a channel', async () => {
    const rows = await deliveries();
    const notice = rows.find((d: { channel_name: string }) => d.channel_name === 'sign-in notice');
    expect(notice).toMatchObject({
      ok: true,
      channel_id: null,
      outbox_id: null,
      outbox_state: null,
      monitor_ids: null,
    });
    expect(notice.provider).toContain(String(fallback.port));
    expect(notice.summary).toMatch(/^sign-in with first-run setup link from /);
    const status = await t.app.get(MailService).status();
    expect(status).toMatchObject({
      configured: true,
      from: 'Farsight <alerts@farsight.test>',
      daily_cap: 200,
      sent_today: 1,
    });
    expect(status.providers).toHaveLength(2);
  });

  it('sends a Down by email through the fallback when the first provider refuses, and says which one took it', async () => {
    await t.http
      .post('/api/v1/channels')
      .set(bearer(admin))
      .send({ kind: 'email', name: 'Me', config: { to: ['owner@example.com'] } })
      .expect(201);
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(httpMonitor({ name: 'NAS web UI', confirm_after: 1 }, { url: target.url }))
      .expect(201);
    await advance(0);
    target.status = 500;
    await advance(60_000);
    await advance(20_000);
    expect(primary.mails).toHaveLength(0);
    expect(fallback.mails).toHaveLength(1);
    const mail = fallback.mails[0];
    expect(mail.to).toEqual(['owner@example.com']);
    expect(decodeSubject(headersOf(mail.raw).get('subject') ?? '')).toMatch(/DOWN.*NAS web UI/);
    const [d] = await deliveries();
    expect(d).toMatchObject({ ok: true, provider: expect.stringContaining('127.0.0.1'), outbox_state: 'sent' });
    expect(d.provider).toContain(String(fallback.port));
  });

  it('pauses email once the daily cap is reached, and tells the other channels once', async () => {
    const got: string[] = [];
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      // One email today already (the sign-in notice at setup): the cap lets exactly one alert through.
      await t.db.tx((m) => t.app.get(SettingsService).setIn(m, { daily_cap: 2 }));
      await t.http
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({ kind: 'email', name: 'Me', config: { to: ['owner@example.com'] } })
        .expect(201);
      await t.http
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({
          kind: 'webhook',
          name: 'Ops',
          events: ['notice'],
          config: {
            url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
            secret: 'a-long-signing-secret-0123456789',
            headers: [],
          },
        })
        .expect(201);
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(httpMonitor({ name: 'NAS', confirm_after: 1 }, { url: target.url }))
        .expect(201);
      await advance(0);
      target.status = 500;
      await advance(60_000);
      await advance(20_000); // down: the one email of the day
      target.status = 200;
      await advance(60_000);
      await advance(20_000); // up: over the cap
      expect(fallback.mails).toHaveLength(1);
      const [last] = await deliveries();
      expect(last).toMatchObject({ ok: false, outbox_state: 'failed' });
      expect(last.error).toMatch(/daily cap of 2/);
      await advance(20_000); // the notice's own 20 s window
      expect(got).toHaveLength(1);
      expect(JSON.parse(got[0]).events[0]).toMatchObject({
        type: 'notice',
        monitor: null,
        message: expect.stringMatching(/Email alerts are paused/),
      });
      // Another email over the cap the same day: no second notice.
      target.status = 500;
      await advance(60_000);
      await advance(40_000);
      expect(got).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => {
        hook.closeAllConnections();
        hook.close(() => r());
      });
    }
  });
});
