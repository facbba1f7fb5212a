/**
 * Alerts end to end: channels, the outbox, batching, retries, muting, reminders, the delivery log
 * and incident timelines, against a real webhook receiver on 127.0.0.1 whose signature check is
 * written here, independently of the service. Time moves with the fake clock; the dispatcher runs
 * when the test says so.
 */
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { ORIGIN, bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: {
    service: string;
    events: {
      type: string;
      at: string;
      monitor: Record<string, unknown> | null;
      message: string;
      duration_ms?: number;
      error?: unknown;
    }[];
  };
}

/** A webhook receiver that answers `statuses` in turn (then 200) and keeps what it got. */
async function receiver(): Promise<{ url: string; got: Received[]; statuses: number[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      got.push({ headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    statuses,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The receiver's side of the signature: HMAC-SHA256 over `<timestamp>.<raw body>`, hex. */
function signatureOk(r: Received, secret: string): boolean {
  const ts = String(r.headers['x-service-timestamp']);
  const want = crypto.createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex');
  const got = String(r.headers['x-service-signature']);
  return got.length === want.length && crypto.timingSafeEqual(Buffer.from(got), Buffer.from(want));
}

const SECRET = 'a-long-signing-secret-0123456789';

describe('alerts', () => {
  let h: EngineHarness;
  let admin: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let dispatcher: DispatcherService;

  beforeEach(async () => {
    h = await startEngineHarness();
    admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    hook = await receiver();
    dispatcher = h.t.app.get(DispatcherService);
  });
  afterEach(async () => {
    await h.close();
    await hook.close();
  });

  const api = () => h.t.http;
  const webhook = async (over: Record<string, unknown> = {}) =>
    (
      await api()
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({ kind: 'webhook', name: 'Hook', config: { url: hook.url, secret: SECRET, headers: [] }, ...over })
        .expect(201)
    ).body;
  const monitor = async (over: Record<string, unknown> = {}) =>
    (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ confirm_after: 1, interval_s: 60, ...over }, { url: h.target.url }))
        .expect(201)
    ).body;
  /** Moves the clock, runs due checks, writes, and lets the dispatcher send what is due. */
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await dispatcher.runDue();
  };
  // The channels' rows: the owner's own mail (the sign-in notice of setup) has no channel.
  const deliveries = async (q = '') =>
    (await api().get(`/api/v1/deliveries${q}`).set(bearer(admin)).expect(200)).body.items.filter(
      (d: { channel_id: number | null }) => d.channel_id !== null,
    );

  it('creates, masks, changes and deletes channels with the spec’s scopes', async () => {
    const write = bearer(h.write);
    await api()
      .post('/api/v1/channels')
      .set(write)
      .send({ kind: 'webhook', name: 'x', config: { url: hook.url, secret: SECRET, headers: [] } })
      .expect(403);
    const c = await webhook({
      headers: undefined,
      config: { url: hook.url, secret: SECRET, headers: [{ name: 'X-Team', value: 'ops-token' }] },
    });
    expect(c).toMatchObject({
      kind: 'webhook',
      name: 'Hook',
      enabled: true,
      config: { url: '********', secret: '********', headers: [{ name: 'X-Team', value: '********' }] },
      status: { state: 'none', at: null, error: null },
    });
    expect(c.events).toEqual(['down', 'up', 'slow', 'flapping', 'cert', 'reminder', 'notice']);
    expect(Object.keys(c).sort()).toEqual(['config', 'enabled', 'events', 'id', 'kind', 'name', 'status']);
    expect(JSON.stringify(h.t.logs)).not.toContain(SECRET);

    // write may rename, disable and pick events; config needs admin.
    expect(
      (
        await api()
          .patch(`/api/v1/channels/${c.id}`)
          .set(write)
          .send({ name: 'Ops hook', events: ['down', 'up'] })
          .expect(200)
      ).body,
    ).toMatchObject({ name: 'Ops hook', events: ['down', 'up'] });
    expect(
      (
        await api()
          .patch(`/api/v1/channels/${c.id}`)
          .set(write)
          .send({ config: { url: '********', secret: '********', headers: [] } })
          .expect(403)
      ).body.error.code,
    ).toBe('forbidden');
    // ******** keeps the stored secret while the URL stays; a new URL needs the secret again.
    await api()
      .patch(`/api/v1/channels/${c.id}`)
      .set(bearer(admin))
      .send({ config: { url: '********', secret: '********', headers: [] } })
      .expect(200);
    const moved = await api()
      .patch(`/api/v1/channels/${c.id}`)
      .set(bearer(admin))
      .send({ config: { url: `${hook.url}2`, secret: '********', headers: [] } })
      .expect(422);
    expect(moved.body.error.field).toBe('config.secret');

    for (const [body, field] of [
      [{ kind: 'pager', name: 'x', config: {} }, 'kind'],
      [
        {
          kind: 'webhook',
          name: 'x',
          events: ['down', 'explode'],
          config: { url: hook.url, secret: SECRET, headers: [] },
        },
        'events[1]',
      ],
      [{ kind: 'webhook', name: '', config: { url: hook.url, secret: SECRET, headers: [] } }, 'name'],
      [{ kind: 'webhook', name: 'x', config: { url: hook.url, secret: SECRET, headers: [] }, colour: 'red' }, 'colour'],
      [{ kind: 'webhook', name: 'x' }, 'config'],
      [{ kind: 'webhook', name: 'x', config: { url: hook.url, secret: '********', headers: [] } }, 'config.secret'],
    ] as const) {
      const res = await api().post('/api/v1/channels').set(bearer(admin)).send(body).expect(422);
      expect(res.body.error.field).toBe(field);
    }
    const list = (await api().get('/api/v1/channels').set(write).expect(200)).body;
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([c.id]);
    await api().delete(`/api/v1/channels/${c.id}`).set(write).expect(403);
    await api().delete(`/api/v1/channels/${c.id}`).set(bearer(admin)).expect(200);
    await api().get(`/api/v1/channels/${c.id}`).set(write).expect(404);
  });

  it('refuses a monitor naming a channel that does not exist', async () => {
    const c = await webhook();
    const res = await api()
      .post('/api/v1/monitors')
      .set(bearer(h.write))
      .send(httpMonitor({ channels: [c.id, c.id + 50] }, { url: h.target.url }))
      .expect(422);
    expect(res.body.error.field).toBe('channels[1]');
  });

  it('sends one signed webhook for a Down, 20 s after it, and records the delivery and the timeline line', async () => {
    const c = await webhook();
    const m = await monitor({ name: 'NAS', description: 'the file server' });
    await advance(0);
    h.target.status = 500;
    await advance(60_000);
    const incidentId = (await api().get(`/api/v1/monitors/${m.id}`).set(bearer(admin))).body.state.incident_id;
    // A row before anything is sent; nothing sent within the batching window.
    const [{ n }] = await h.t.db.query<{ n: number }[]>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'");
    expect(n).toBe(1);
    expect(hook.got).toHaveLength(0);
    await advance(19_000);
    expect(hook.got).toHaveLength(0);
    h.target.status = 500;
    await advance(1_000);
    expect(hook.got).toHaveLength(1);
    const r = hook.got[0];
    expect(signatureOk(r, SECRET)).toBe(true);
    // The timestamp is the machine's real time: the receiver checks it against its own clock.
    expect(Math.abs(Number(r.headers['x-service-timestamp']) * 1000 - Date.now())).toBeLessThan(5000);
    expect(r.headers['x-service-message-id']).toMatch(/\S/);
    expect(r.body.service).toBe('1');
    expect(r.body.events).toHaveLength(1);
    expect(r.body.events[0]).toMatchObject({
      type: 'down',
      monitor: { id: m.id, name: 'NAS', slug: m.slug, group: null, target: `GET ${h.target.url}`, url: h.target.url },
      error: { code: 'status' },
    });
    expect(r.body.events[0].message).toMatch(/NAS is down/);

    const [d] = await deliveries();
    expect(d).toMatchObject({
      channel_id: c.id,
      channel_name: 'Hook',
      ok: true,
      outbox_state: 'sent',
      monitor_ids: [m.id],
      error: null,
    });
    expect(Object.keys(d).sort()).toEqual([
      'at',
      'channel_id',
      'channel_name',
      'error',
      'id',
      'monitor_ids',
      'ok',
      'outbox_id',
      'outbox_state',
      'provider',
      'status',
      'summary',
    ]);
    const channel = (await api().get(`/api/v1/channels/${c.id}`).set(bearer(admin))).body;
    expect(channel.status).toMatchObject({ state: 'ok', error: null });
    const timeline = (await api().get(`/api/v1/incidents/${incidentId}`).set(bearer(admin))).body.timeline;
    expect(timeline.map((l: { kind: string }) => l.kind)).toEqual(['failing', 'down', 'alert']);
    expect(timeline[2].text).toMatch(/sent to Hook/);
  });

  it('batches events of 20 s into one message per channel', async () => {
    await webhook();
    const ms = [await monitor({ name: 'A' }), await monitor({ name: 'B' }), await monitor({ name: 'C' })];
    await advance(0);
    h.target.status = 500;
    await advance(60_000); // all three down in the same second
    await advance(25_000);
    expect(hook.got).toHaveLength(1);
    expect(hook.got[0].body.events.map((e) => e.monitor?.name).sort()).toEqual(['A', 'B', 'C']);
    const [d] = await deliveries();
    expect(d.monitor_ids.sort()).toEqual(ms.map((m) => m.id).sort());
    expect(d.summary).toMatch(/^3 alerts/);
  });

  it('retries on the schedule, then succeeds; gives up after six tries; a permanent error stops at once', async () => {
    const c = await webhook();
    await monitor();
    await advance(0);
    hook.statuses.push(503, 503);
    h.target.status = 500;
    await advance(60_000);
    await advance(20_000); // try 1: 503
    let rows = await deliveries();
    expect(rows.map((d: { ok: boolean; outbox_state: string }) => [d.ok, d.outbox_state])).toEqual([
      [false, 'retrying'],
    ]);
    expect(rows[0].status).toBe(503);
    await advance(29_000);
    expect(hook.got).toHaveLength(1); // not before 30 s
    await advance(1_000); // try 2: 503
    await advance(120_000); // try 3: 200
    rows = await deliveries();
    expect(rows.map((d: { ok: boolean }) => d.ok)).toEqual([true, false, false]);
    expect(new Set(rows.map((d: { outbox_id: number }) => d.outbox_id)).size).toBe(1);
    expect(rows.every((d: { outbox_state: string }) => d.outbox_state === 'sent')).toBe(true);
    // Every attempt of one message carries the same message id.
    expect(new Set(hook.got.map((g) => g.headers['x-service-message-id'])).size).toBe(1);

    // Now a receiver that always fails: 6 tries, then failed.
    hook.statuses.push(500, 500, 500, 500, 500, 500);
    h.target.status = 200;
    await advance(60_000); // up → a new message
    for (const wait of [20_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000]) await advance(wait);
    rows = await deliveries(`?channel_id=${c.id}&limit=6`);
    expect(rows).toHaveLength(6);
    expect(rows.every((d: { ok: boolean; outbox_state: string }) => !d.ok && d.outbox_state === 'failed')).toBe(true);

    // A 4xx other than 408/429 is permanent: one try.
    hook.statuses.push(400);
    h.target.status = 500;
    await advance(60_000);
    await advance(20_000);
    const [last] = await deliveries();
    expect(last).toMatchObject({ ok: false, status: 400, outbox_state: 'failed' });
    await advance(7_200_000);
    expect((await deliveries()).filter((d: { outbox_id: number }) => d.outbox_id === last.outbox_id)).toHaveLength(1);
  });

  it('holds alerts of a muted monitor and says so in the incident timeline', async () => {
    await webhook();
    const m = await monitor();
    await advance(0);
    await api()
      .post(`/api/v1/monitors/${m.id}/mute`)
      .set(bearer(h.write))
      .send({ until: new Date(h.t.clock.now() + 3_600_000).toISOString() })
      .expect(200);
    h.target.status = 500;
    await advance(60_000);
    await advance(30_000);
    expect(hook.got).toHaveLength(0);
    const id = (await api().get(`/api/v1/monitors/${m.id}`).set(bearer(admin))).body.state.incident_id;
    const lines = (await api().get(`/api/v1/incidents/${id}`).set(bearer(admin))).body.timeline;
    expect(lines.find((l: { kind: string }) => l.kind === 'alert').text).toMatch(/not sent.*muted/);
  });

  it('reminds every remind_every_min while Down, and stops on recovery', async () => {
    await webhook();
    const hb = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(heartbeatMonitor({ remind_every_min: 5 }))
        .expect(201)
    ).body;
    const url = new URL(hb.heartbeat_url).pathname;
    await api().post(`${url}/fail`).set('Content-Type', 'text/plain').send('disk full').expect(200);
    await advance(20_000);
    expect(hook.got.map((g) => g.body.events[0].type)).toEqual(['down']);
    await advance(4 * 60_000);
    expect(hook.got).toHaveLength(1);
    await advance(60_000); // 5 min after Down: a reminder, sent 20 s later
    await advance(20_000);
    await advance(5 * 60_000);
    await advance(20_000);
    const types = hook.got.map((g) => g.body.events.map((e) => e.type).join('+'));
    expect(types).toEqual(['down', 'reminder', 'reminder']);
    expect(hook.got[1].body.events[0].message).toMatch(/still down after/);
    await api().get(url).expect(200);
    await advance(20_000);
    await advance(10 * 60_000);
    expect(hook.got.map((g) => g.body.events[0].type)).toEqual(['down', 'reminder', 'reminder', 'up']);
  });

  it('fails the queued messages of a deleted channel, and monitors stop naming it', async () => {
    const c = await webhook();
    const other = await webhook({ name: 'Other' });
    const named = await monitor({ name: 'named', channels: [c.id, other.id] });
    const only = await monitor({ name: 'only', channels: [c.id] });
    await monitor();
    await advance(0);
    h.target.status = 500;
    await advance(60_000);
    await api().delete(`/api/v1/channels/${c.id}`).set(bearer(admin)).expect(200);
    await advance(30_000);
    // Only Other's message went out (the deleted channel's would have named "only" too).
    expect(hook.got).toHaveLength(1);
    expect(hook.got[0].body.events.map((e) => e.monitor?.name).sort()).toEqual(['Web', 'named']);
    const rows = await h.t.db.query<{ channel_id: number; state: string }[]>('SELECT channel_id, state FROM outbox');
    expect(rows.filter((r) => r.channel_id === c.id).map((r) => r.state)).toEqual(['failed']);
    const channelsOf = async (id: number) =>
      (await api().get(`/api/v1/monitors/${id}`).set(bearer(admin))).body.channels;
    expect(await channelsOf(named.id)).toEqual([other.id]);
    expect(await channelsOf(only.id)).toEqual([]);
    const line = (await api().get(`/api/v1/events?monitor_id=${only.id}&kind=monitor_updated`).set(bearer(admin))).body
      .items[0];
    expect(line).toMatchObject({ actor: 'key:admin key', data: { fields: ['channels'] } });
  });

  it('sends a test message and logs it with monitor_ids null', async () => {
    const c = await webhook();
    const answer = (await api().post(`/api/v1/channels/${c.id}/test`).set(bearer(h.write)).expect(200)).body;
    expect(answer).toEqual({ ok: true, provider: expect.any(String), status: 200, error: null });
    expect(hook.got[0].body.events[0]).toMatchObject({ type: 'notice', monitor: null });
    expect(signatureOk(hook.got[0], SECRET)).toBe(true);
    const [d] = await deliveries();
    expect(d).toMatchObject({
      ok: true,
      monitor_ids: null,
      outbox_id: null,
      outbox_state: null,
      summary: 'test message',
    });
    hook.statuses.push(500);
    expect(
      (
        await api()
          .post(`/api/v1/channels/${c.id}/test`)
          .set('Cookie', h.cookie)
          .set('Origin', ORIGIN)
          .send({})
          .expect(200)
      ).body,
    ).toMatchObject({ ok: false, status: 500 });
  });

  it('prunes sent messages after 30 days: their delivery rows stay, with outbox_state null', async () => {
    await webhook();
    await monitor();
    await advance(0);
    h.target.status = 500;
    await advance(60_000);
    await advance(20_000);
    expect((await deliveries())[0]).toMatchObject({ ok: true, outbox_state: 'sent' });
    h.target.status = 200;
    h.t.clock.advance(31 * 86_400_000);
    await dispatcher.runDue();
    const rows = await deliveries();
    expect(rows.find((d: { outbox_state: string | null; summary: string }) => /is down/.test(d.summary))).toMatchObject(
      { ok: true, outbox_state: null },
    );
  });
});
