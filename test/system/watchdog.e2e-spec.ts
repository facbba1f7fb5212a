/**
 * The watchdog on the real app (docs/watchdog.md): the setting (URL masked, sealed at rest,
 * checked), a ping per tick to a local receiver that answers as Healthchecks does
 * (https://healthchecks.io/docs/http_api/#success-uuid: "GET /ping/<uuid>" answers 200 "OK"),
 * failures in diagnostics with the last answer and no alert, no ping while blind, a redirect not
 * followed, a hung receiver bounded. Scheduled pings are driven by tick() with the fake clock.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { BlindGate } from '../../src/engine/blind/blind-gate';
import { WatchdogService } from '../../src/system/watchdog/watchdog.service';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';

const UUID = '5bf66975-d4c7-4bf5-bcc8-b8d8a82ea278';

describe('watchdog', () => {
  let t: TestApp;
  let cookie: string;
  let read: string;
  let receiver: http.Server;
  let base: string;
  const pings: { path: string; agent: string }[] = [];
  let mode: 'ok' | 'fail' | 'redirect' | 'hang' = 'ok';
  // The blind gate's canary: a loopback port that accepts while the service's network "works".
  let canary: net.Server;
  let canaryPort: number;
  const canaryUp = () =>
    new Promise<void>((r) => {
      canary = net.createServer((s) => s.destroy());
      canary.listen(canaryPort, '127.0.0.1', r);
    });
  const canaryDown = () => new Promise<void>((r) => canary.close(() => r()));

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      pings.push({ path: req.url ?? '', agent: String(req.headers['user-agent']) });
      if (mode === 'hang') return; // never answers
      if (mode === 'redirect') return res.writeHead(302, { Location: `${base}/elsewhere` }).end();
      if (mode === 'fail') return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\u0007');
      // Healthchecks answers a ping with 200 and the body "OK".
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const picker = net.createServer();
    await new Promise<void>((r) => picker.listen(0, '127.0.0.1', r));
    canaryPort = (picker.address() as AddressInfo).port;
    await new Promise<void>((r) => picker.close(() => r()));
    await canaryUp();
    t = await startApp({ FARSIGHT_CANARIES: `127.0.0.1:${canaryPort}` });
    await t.app.get(BlindGate).probe();
    ({ cookie } = await createOwner(t));
    read = await createKey(t, cookie, 'read');
  });
  afterAll(async () => {
    await t.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    await canaryDown();
  });

  const patch = (body: unknown) =>
    t.http
      .patch('/api/v1/settings')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send(body as object);
  const diag = async () => (await t.http.get('/api/v1/diagnostics').set(bearer(read)).expect(200)).body.watchdog;
  const dog = () => t.app.get(WatchdogService);

  it('is off by default, and diagnostics say so', async () => {
    expect((await t.http.get('/api/v1/settings').set(bearer(read)).expect(200)).body.watchdog).toBeNull();
    expect(await diag()).toMatchObject({ configured: false, last_ping_at: null, failures_in_row: 0 });
    await dog().tick();
    expect(pings).toEqual([]);
  });

  it.each([
    [{ url: 'ftp://x.example/ping' }, 'watchdog.url'],
    [{ url: 'not a url' }, 'watchdog.url'],
    [{ url: '********' }, 'watchdog.url'],
    [{ interval_s: 60 }, 'watchdog.url'],
    [{ url: 'https://hc-ping.com/x', interval_s: 29 }, 'watchdog.interval_s'],
    [{ url: 'https://hc-ping.com/x', interval_s: 3601 }, 'watchdog.interval_s'],
    [{ url: 'https://hc-ping.com/x', every: 60 }, 'watchdog.every'],
    ['https://hc-ping.com/x', 'watchdog'],
  ])('refuses watchdog %j naming %s, changing nothing', async (watchdog, field) => {
    const res = await patch({ watchdog }).expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect((await t.http.get('/api/v1/settings').set(bearer(read))).body.watchdog).toBeNull();
  });

  it('takes a URL, masks it in answers and the timeline, seals it at rest, and pings it at once', async () => {
    const url = `${base}/ping/${UUID}`;
    const res = await patch({ watchdog: { url, interval_s: 30 } }).expect(200);
    expect(res.body.watchdog).toEqual({ url: '********', interval_s: 30 });
    const stored = (await t.db.query("SELECT value FROM settings WHERE key = 'watchdog'")) as { value: string }[];
    expect(stored[0].value).not.toContain(UUID);
    const events = await t.http.get('/api/v1/events?kind=settings_changed').set(bearer(read)).expect(200);
    expect(JSON.stringify(events.body)).not.toContain(UUID);
    await dog().tick();
    expect(pings.at(-1)).toEqual({ path: `/ping/${UUID}`, agent: expect.stringMatching(/^Farsight\/\S+ watchdog$/) });
    expect(await diag()).toMatchObject({
      configured: true,
      interval_s: 30,
      last_ping_at: new Date(t.clock.now()).toISOString(),
      last_ok_at: new Date(t.clock.now()).toISOString(),
      last_status: 200,
      last_answer: 'HTTP 200: OK',
      last_error: null,
      failures_in_row: 0,
    });
    // The masked URL sent back keeps it; another interval alone changes only that.
    await patch({ watchdog: { url: '********', interval_s: 120 } }).expect(200);
    await patch({ watchdog: { interval_s: 300 } }).expect(200);
    const after = (await t.db.query("SELECT value FROM settings WHERE key = 'watchdog'")) as { value: string }[];
    expect(JSON.parse(after[0].value).interval_s).toBe(300);
    pings.length = 0;
    await dog().tick();
    expect(pings.map((p) => p.path)).toEqual([`/ping/${UUID}`]);
  });

  it('shows a failure with the last answer in diagnostics, sends no alert, and recovers', async () => {
    mode = 'fail';
    t.clock.advance(300_000);
    await dog().tick();
    const failed = await diag();
    expect(failed).toMatchObject({
      last_status: 404,
      last_answer: 'HTTP 404: not found',
      last_error: 'the URL answered HTTP 404',
      failures_in_row: 1,
      failing_since: new Date(t.clock.now()).toISOString(),
    });
    expect(JSON.stringify(failed)).not.toContain(UUID);
    const outbox = (await t.db.query('SELECT COUNT(*) AS n FROM outbox')) as { n: number }[];
    expect(outbox[0].n).toBe(0);
    mode = 'ok';
    t.clock.advance(300_000);
    await dog().tick();
    expect(await diag()).toMatchObject({ last_status: 200, last_error: null, failures_in_row: 0, failing_since: null });
  });

  it('does not follow a redirect: the ping counts as failed and says where it pointed', async () => {
    mode = 'redirect';
    pings.length = 0;
    await dog().tick();
    expect(pings.map((p) => p.path)).toEqual([`/ping/${UUID}`]);
    expect((await diag()).last_error).toBe(
      `the URL answered a redirect (HTTP 302 to ${base}/elsewhere), which the watchdog does not follow: use the final URL`,
    );
    mode = 'ok';
  });

  it('gives up on a receiver that never answers, within the bound', async () => {
    mode = 'hang';
    const started = Date.now();
    await dog().tick();
    expect(Date.now() - started).toBeLessThan(14_000);
    expect(await diag()).toMatchObject({ last_status: null, last_answer: null, last_error: 'no answer within 10 s' });
    mode = 'ok';
  }, 30_000);

  it('pings nothing while the service is blind, says when it held back, and pings again once it is not', async () => {
    const gate = t.app.get(BlindGate);
    await canaryDown();
    await gate.probe();
    expect(gate.status().active).toBe(true);
    pings.length = 0;
    await dog().tick();
    expect(pings).toEqual([]);
    expect((await diag()).skipped_blind_at).toBe(new Date(t.clock.now()).toISOString());
    await canaryUp();
    await gate.probe();
    expect(gate.status().active).toBe(false);
    await dog().tick();
    expect(pings.map((p) => p.path)).toEqual([`/ping/${UUID}`]);
  });

  it('stops when the watchdog is turned off', async () => {
    await patch({ watchdog: null }).expect(200);
    pings.length = 0;
    await dog().tick();
    expect(pings).toEqual([]);
    expect(await diag()).toMatchObject({ configured: false });
  });
});
