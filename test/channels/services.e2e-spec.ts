/**
 * The service channel kinds end to end (ntfy, Gotify, Telegram, Pushover, Matrix, PagerDuty, Home
 * Assistant, Apprise): each against its API emulated on 127.0.0.1 from the service's public
 * documentation (harness/servers/service-apis.ts cites the page of each). Per kind: a real Down
 * and Up through the outbox, the test button, a retryable and a permanent failure, the service's
 * hostile answers, and no secret in answers, the delivery log or the logs. Time moves with the
 * fake clock; the dispatcher runs when the test says so.
 */
import type { SendContext } from '../../src/channels/channel-kind';
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { senderOf } from '../../src/channels/senders/registry';
import { createMailTransport } from '../../src/mail/mail-transport';
import { Receiver, startReceiver } from '../../harness/servers/receivers';
import {
  Accepted,
  CREDENTIALS,
  SECRET_VALUES,
  Service,
  ServiceApis,
  serviceApiEnv,
  serviceConfigs,
  startServiceApis,
} from '../../harness/servers/service-apis';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';

const KINDS: Service[] = ['ntfy', 'gotify', 'telegram', 'pushover', 'matrix', 'pagerduty', 'home-assistant', 'apprise'];

/** What each service's message must hold for a Down and an Up of the monitor "NAS". */
function expectDown(kind: Service, a: Accepted, incidentId: number): void {
  const b = a.body as Record<string, unknown>;
  switch (kind) {
    case 'ntfy':
      expect(a.headers.authorization).toBe(`Bearer ${CREDENTIALS.ntfyToken}`);
      expect(b).toMatchObject({ topic: 'farsight-alerts', priority: 4, tags: ['rotating_light'] });
      expect(b.title).toMatch(/^DOWN: NAS <main> — expected status/);
      expect(b.click).toMatch(/\/monitors\/\d+$/);
      expect(b.actions).toEqual([{ action: 'view', label: 'Runbook', url: 'https://wiki.lan/nas', clear: false }]);
      break;
    case 'gotify':
      expect(b).toMatchObject({ priority: 8, extras: { 'client::display': { contentType: 'text/plain' } } });
      expect(b.title).toMatch(/^DOWN: NAS/);
      expect(b.message).toContain('Runbook: https://wiki.lan/nas');
      break;
    case 'telegram':
      expect(b).toMatchObject({
        chat_id: CREDENTIALS.telegramChat,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      });
      expect(b.text).toMatch(/^<b>DOWN: NAS &lt;main&gt; — /);
      expect(b.text).toContain('<a href="https://wiki.lan/nas">Runbook</a>');
      break;
    case 'pushover':
      expect(b).toMatchObject({
        token: CREDENTIALS.pushoverApp,
        user: CREDENTIALS.pushoverUser,
        priority: 1,
        url_title: 'Open in Farsight',
      });
      expect(b.title).toMatch(/^DOWN: NAS/);
      break;
    case 'matrix':
      expect(a.method).toBe('PUT');
      expect(a.path).toMatch(/\/send\/m\.room\.message\/farsight-alert-\d+$/);
      expect(b).toMatchObject({ msgtype: 'm.text', format: 'org.matrix.custom.html', 'm.mentions': {} });
      expect(b.body).toContain('DOWN: NAS <main>');
      expect(b.formatted_body).toContain('<b>DOWN: NAS &lt;main&gt;');
      break;
    case 'pagerduty':
      expect(b).toMatchObject({
        routing_key: CREDENTIALS.pagerdutyKey,
        event_action: 'trigger',
        dedup_key: String(incidentId),
        payload: { severity: 'critical', component: 'NAS <main>' },
        client: 'Farsight',
      });
      expect(b.links).toEqual(expect.arrayContaining([{ href: 'https://wiki.lan/nas', text: 'Runbook' }]));
      break;
    case 'home-assistant':
      expect(a.path).toBe('/api/services/notify/mobile_app_phone');
      expect(a.headers.authorization).toBe(`Bearer ${CREDENTIALS.haToken}`);
      expect(b.title).toMatch(/^DOWN: NAS/);
      expect(b).toMatchObject({ data: { url: expect.stringMatching(/\/monitors\/\d+$/) } });
      break;
    case 'apprise':
      expect(b).toMatchObject({ type: 'failure', format: 'text' });
      expect(b.title).toMatch(/^DOWN: NAS/);
      break;
  }
}

function expectUp(kind: Service, a: Accepted, incidentId: number): void {
  const b = a.body as Record<string, unknown>;
  const title = String(b.title ?? b.text ?? b.body ?? '');
  if (kind === 'pagerduty')
    return void expect(b).toEqual({
      routing_key: CREDENTIALS.pagerdutyKey,
      event_action: 'resolve',
      dedup_key: String(incidentId),
    });
  expect(title).toMatch(/UP: NAS/);
  if (kind === 'ntfy') expect(b).toMatchObject({ priority: 3, tags: ['white_check_mark'] });
  if (kind === 'pushover') expect(b.priority).toBe(0);
  if (kind === 'apprise') expect(b.type).toBe('success');
}

describe('service channels', () => {
  let h: EngineHarness;
  let apis: ServiceApis;
  let admin: string;
  let dispatcher: DispatcherService;
  const ids = {} as Record<Service, number>;

  beforeAll(async () => {
    apis = await startServiceApis();
    h = await startEngineHarness({}, serviceApiEnv(apis.origin));
    admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    dispatcher = h.t.app.get(DispatcherService);
    const configs = serviceConfigs(apis.origin);
    for (const kind of KINDS) {
      const res = await api()
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({ kind, name: `My ${kind}`, config: configs[kind] });
      expect(res.status).toBe(201);
      ids[kind] = res.body.id;
    }
  });
  afterAll(async () => {
    await h.close();
    await apis.close();
  });

  const api = () => h.t.http;
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await dispatcher.runDue();
  };
  const deliveries = async (kind: Service) =>
    (await api().get(`/api/v1/deliveries?channel_id=${ids[kind]}`).set(bearer(admin)).expect(200)).body.items;
  /** A monitor on one channel, up, then down: resolves once its Down alert was attempted (20 s batch). */
  const downMonitor = async (kind: Service, over: Record<string, unknown> = {}) => {
    h.target.status = 200;
    const m = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(
          httpMonitor(
            {
              name: 'NAS <main>',
              confirm_after: 1,
              interval_s: 60,
              channels: [ids[kind]],
              runbook_url: 'https://wiki.lan/nas',
              ...over,
            },
            { url: h.target.url },
          ),
        )
        .expect(201)
    ).body;
    await advance(0);
    h.target.status = 500;
    await advance(60_000);
    const incidentId = (await api().get(`/api/v1/monitors/${m.id}`).set(bearer(admin))).body.state
      .incident_id as number;
    await advance(20_000);
    return { m, incidentId };
  };
  const remove = async (id: number) => {
    h.target.status = 200;
    await api().delete(`/api/v1/monitors/${id}`).set(bearer(h.write)).expect(200);
  };

  it.each(KINDS)(
    '%s: answers masked, a Down and then an Up sent through the outbox in the service’s shape',
    async (kind) => {
      const shown = (await api().get(`/api/v1/channels/${ids[kind]}`).set(bearer(admin)).expect(200)).body;
      for (const v of SECRET_VALUES) expect(JSON.stringify(shown)).not.toContain(v);
      const before = apis.of(kind).length;
      const { m, incidentId } = await downMonitor(kind);
      const got = apis.of(kind).slice(before);
      expect(got).toHaveLength(1);
      expectDown(kind, got[0], incidentId);
      h.target.status = 200;
      await advance(60_000);
      await advance(20_000);
      const after = apis.of(kind).slice(before);
      expect(after).toHaveLength(2);
      expectUp(kind, after[1], incidentId);
      const [last] = await deliveries(kind);
      expect(last).toMatchObject({ ok: true, provider: kind, outbox_state: 'sent' });
      await remove(m.id);
    },
  );

  it.each(KINDS)('%s: the test button makes the real API call', async (kind) => {
    const before = apis.of(kind).length;
    const res = await api().post(`/api/v1/channels/${ids[kind]}/test`).set(bearer(admin)).expect(200);
    expect(res.body).toMatchObject({ ok: true, provider: kind, error: null });
    const got = apis.of(kind).slice(before);
    // PagerDuty: a test alert is triggered and resolved at once.
    expect(got.map((g) => g.body.event_action ?? 'message')).toEqual(
      kind === 'pagerduty' ? ['trigger', 'resolve'] : ['message'],
    );
  });

  it.each(KINDS)('%s: a rate limit is retried, and the retry is sent', async (kind) => {
    apis.failNext(kind, 'rate-limit');
    const before = apis.of(kind).length;
    const { m } = await downMonitor(kind);
    const [first] = await deliveries(kind);
    expect(first).toMatchObject({ ok: false, outbox_state: 'retrying' });
    expect(first.status).toBe(kind === 'gotify' || kind === 'home-assistant' ? 503 : kind === 'apprise' ? 424 : 429);
    await advance(30_000);
    const [second] = await deliveries(kind);
    expect(second).toMatchObject({ ok: true, outbox_state: 'sent', outbox_id: first.outbox_id });
    expect(apis.of(kind).length - before).toBe(1);
    await remove(m.id);
  });

  it.each(KINDS)('%s: a permanent refusal is not retried, and says why without a secret', async (kind) => {
    apis.failNext(kind, 'refuse');
    const { m } = await downMonitor(kind);
    const [d] = await deliveries(kind);
    expect(d).toMatchObject({ ok: false, outbox_state: 'failed' });
    expect(d.error).toMatch(/answered 4\d\d/);
    for (const v of SECRET_VALUES) expect(d.error).not.toContain(v);
    await remove(m.id);
  });

  it.each(KINDS)(
    '%s: a proxy’s HTML page is named by its title and retried; a redirect is not followed',
    async (kind) => {
      apis.failNext(kind, 'html');
      let res = await api().post(`/api/v1/channels/${ids[kind]}/test`).set(bearer(admin)).expect(200);
      expect(res.body).toMatchObject({ ok: false, status: 502 });
      expect(res.body.error).toContain('answered 502 Bad Gateway: an HTML page: "502 Bad Gateway"');
      apis.failNext(kind, 'redirect');
      res = await api().post(`/api/v1/channels/${ids[kind]}/test`).set(bearer(admin)).expect(200);
      expect(res.body).toMatchObject({ ok: false, status: 302 });
      expect(res.body.error).toContain('redirects are not followed');
      expect(apis.requests.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
    },
  );

  it.each([
    ['telegram', /Bad Request: can't parse entities/],
    ['pushover', /message is being held/],
  ] as const)('%s: a 200 carrying the service’s error is a failure', async (kind, words) => {
    apis.failNext(kind, 'ok-error');
    const res = await api().post(`/api/v1/channels/${ids[kind]}/test`).set(bearer(admin)).expect(200);
    expect(res.body).toMatchObject({ ok: false, status: 200 });
    expect(res.body.error).toMatch(words);
  });

  it('matrix: a retry after a lost answer reuses the transaction id, so the room gets one message', async () => {
    apis.failNext('matrix', 'lost-answer');
    const before = apis.of('matrix').length;
    const requests = apis.requests.length;
    const { m } = await downMonitor('matrix');
    expect((await deliveries('matrix'))[0]).toMatchObject({ ok: false, outbox_state: 'retrying' });
    await advance(30_000);
    expect((await deliveries('matrix'))[0]).toMatchObject({ ok: true, outbox_state: 'sent' });
    const puts = apis.requests.slice(requests).filter((r) => r.service === 'matrix');
    expect(puts).toHaveLength(2);
    expect(puts[0].path).toBe(puts[1].path);
    expect(apis.of('matrix').length - before).toBe(1);
    await remove(m.id);
  });

  it('pagerduty: trigger on down, acknowledge when the owner acknowledges, no re-trigger on reminders, resolve on up', async () => {
    const { m, incidentId } = await downMonitor('pagerduty', { remind_every_min: 5 });
    const key = String(incidentId);
    expect(apis.pagerduty.get(key)).toEqual({ status: 'triggered', triggers: 1 });
    await api().patch(`/api/v1/incidents/${incidentId}`).set(bearer(admin)).send({ acknowledged: true }).expect(200);
    // Queued with the acknowledgement: the row is there before anything is sent.
    const [{ n }] = await h.t.db.query<{ n: number }[]>(
      `SELECT COUNT(*) AS n FROM outbox WHERE channel_id = ${ids.pagerduty} AND state = 'pending'`,
    );
    expect(n).toBe(1);
    await advance(20_000);
    expect(apis.pagerduty.get(key)).toEqual({ status: 'acknowledged', triggers: 1 });
    const calls = apis.of('pagerduty').length;
    for (let i = 0; i < 6; i++) await advance(60_000);
    // A reminder went out (to this channel too) and PagerDuty got nothing for it.
    const reminders = await h.t.db.query<{ n: number }[]>(
      `SELECT COUNT(*) AS n FROM outbox_events WHERE event LIKE '%"type":"reminder"%' AND incident_id = ${incidentId}`,
    );
    expect(reminders[0].n).toBeGreaterThan(0);
    expect(apis.of('pagerduty').length).toBe(calls);
    expect(apis.pagerduty.get(key)).toEqual({ status: 'acknowledged', triggers: 1 });
    h.target.status = 200;
    await advance(60_000);
    await advance(20_000);
    expect(apis.pagerduty.get(key)).toEqual({ status: 'resolved', triggers: 1 });
    await remove(m.id);
  });

  it('50 Downs at once: one message per channel, within each service’s length limit, the rest counted', async () => {
    const monitors: number[] = [];
    const before = Object.fromEntries(KINDS.map((k) => [k, apis.of(k).length]));
    const deliveriesBefore = Object.fromEntries(
      await Promise.all(KINDS.map(async (k) => [k, (await deliveries(k)).length])),
    );
    // Heartbeat monitors told of a failure: 50 Downs at the same moment.
    for (let i = 1; i <= 50; i++) {
      const body = heartbeatMonitor({
        name: `Service ${String(i).padStart(2, '0')}`,
        channels: KINDS.map((k) => ids[k]),
      });
      const hb = (await api().post('/api/v1/monitors').set(bearer(h.write)).send(body).expect(201)).body;
      monitors.push(hb.id);
      await api()
        .post(`${new URL(hb.heartbeat_url).pathname}/fail`)
        .set('Content-Type', 'text/plain')
        .send('disk full')
        .expect(200);
    }
    await advance(20_000);
    for (const kind of KINDS) {
      const got = apis.of(kind).slice(before[kind]);
      // PagerDuty takes one event per request: one delivery, one trigger per incident.
      expect(got).toHaveLength(kind === 'pagerduty' ? 50 : 1);
      expect((await deliveries(kind)).length - deliveriesBefore[kind]).toBe(1);
      const b = got[0].body as Record<string, unknown>;
      const text = String(b.message ?? b.text ?? b.body ?? '');
      if (kind !== 'pagerduty') expect(String(b.title ?? text)).toContain('50 alerts: 50 down');
      if (kind === 'pushover') expect([...text].length).toBeLessThanOrEqual(1024);
      if (kind === 'telegram') expect(text.length).toBeLessThanOrEqual(4096);
      if (kind === 'ntfy') expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      if (kind === 'pushover' || kind === 'ntfy' || kind === 'telegram' || kind === 'home-assistant')
        expect(text).toMatch(/… and \d+ more$/);
      if (kind === 'matrix') expect(b.body).toContain('Service 50');
    }
    expect(
      new Set(
        apis
          .of('pagerduty')
          .slice(before.pagerduty)
          .map((a) => a.body.dedup_key),
      ).size,
    ).toBe(50);
    for (const id of monitors) await remove(id);
  });

  it('export masks every service secret, and an export with secrets imports back', async () => {
    const masked = (await api().get('/api/v1/export').set(bearer(admin)).expect(200)).body;
    const text = JSON.stringify(masked.channels);
    for (const v of SECRET_VALUES) expect(text).not.toContain(v);
    expect(masked.channels.map((c: { kind: string }) => c.kind)).toEqual(expect.arrayContaining(KINDS));
    const full = (await api().get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    expect(JSON.stringify(full.channels)).toContain(CREDENTIALS.pagerdutyKey);
    const res = await api()
      .post('/api/v1/import')
      .set(bearer(admin))
      .send({ ...full, dry_run: true });
    expect(res.status).toBe(200);
  });

  it('no secret reaches the delivery log or the logs', async () => {
    const all = JSON.stringify((await api().get('/api/v1/deliveries?limit=200').set(bearer(admin)).expect(200)).body);
    const logs = JSON.stringify(h.t.logs);
    for (const v of SECRET_VALUES) {
      expect(all).not.toContain(v);
      expect(logs).not.toContain(v);
    }
  });
});

describe('service channels against hostile receivers', () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(async () => rx.close());

  /** Each kind's config aimed at `path` of the hostile receiver (Pushover and PagerDuty through ctx.apis). */
  const aimed = (kind: Service, path: string): Record<string, unknown> => {
    const c = serviceConfigs(`${rx.origin}${path}`)[kind];
    if (kind === 'ntfy' || kind === 'gotify') return { ...c, server: `${rx.origin}${path}` };
    return c;
  };
  const send = (kind: Service, path: string) => {
    const config = senderOf(kind).parseConfig(aimed(kind, path));
    if (!config.ok) throw new Error(JSON.stringify(config.errors));
    const ctx: SendContext = {
      allowPrivate: true,
      publicUrl: 'http://farsight.test',
      mail: createMailTransport({ smtp: null, smtpFallback: null, mailFrom: 'x@y.z' }),
      apis: { pushover: `${rx.origin}${path}`, pagerduty: `${rx.origin}${path}` },
      timeoutMs: 400,
    };
    return senderOf(kind).send(config.config, { id: 'farsight-alert-1', events: [], test: true }, ctx);
  };

  it.each(KINDS)('%s: a receiver that hangs or trickles costs the deadline, and is retried', async (kind) => {
    for (const path of ['/hang', '/trickle']) {
      const started = Date.now();
      const r = await send(kind, path);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(r).toMatchObject({ ok: false, permanent: false });
      expect(r.error).toMatch(/timed out after 400 ms/);
    }
  });

  it.each(KINDS)('%s: a 10 MB error page is cut at the read limit', async (kind) => {
    const r = await send(kind, '/big/503');
    expect(r).toMatchObject({ ok: false, status: 503, permanent: false });
    expect((r.error ?? '').length).toBeLessThanOrEqual(300);
    expect(await rx.bigClosed()).toBeLessThan(10 * 1024 * 1024);
  });
});
