/** GET /diagnostics on the real app: every documented field, from what the service really counts. */
import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { version } from '../../package.json';
import { BlindGate } from '../../src/engine/blind/blind-gate';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { NO_PHASES } from '../../src/probes/check-result';
import { TCP_OPEN_CLOSE_BYTES } from '../../src/system/egress';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';

describe('diagnostics', () => {
  let t: TestApp;
  let read: string;
  let write: string;
  let canary: net.Server;
  let canaryPort: number;

  beforeEach(async () => {
    canary = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryPort = (canary.address() as net.AddressInfo).port;
    t = await startApp({ FARSIGHT_CANARIES: `127.0.0.1:${canaryPort}` });
    const { cookie } = await createOwner(t);
    read = await createKey(t, cookie, 'read');
    write = await createKey(t, cookie, 'write');
  });
  afterEach(async () => {
    await t.close();
    await new Promise((r) => canary.close(r));
  });

  const get = async () => (await t.http.get('/api/v1/diagnostics').set(bearer(read)).expect(200)).body;

  it('answers every documented field (docs/diagnostics.md), with a read key', async () => {
    t.clock.advance(90_000);
    const d = await get();
    expect(Object.keys(d)).toEqual([
      'version',
      'started_at',
      'uptime_s',
      'memory',
      'monitors',
      'checks_per_min',
      'database',
      'writer',
      'scheduler',
      'canary',
      'outbox',
      'email',
      'egress',
      'watchdog',
      'problems',
    ]);
    expect(d).toMatchObject({
      version,
      started_at: '2026-11-01T12:00:00.000Z',
      uptime_s: 90,
      memory: {
        rss_bytes: expect.any(Number),
        heap_used_bytes: expect.any(Number),
        heap_total_bytes: expect.any(Number),
        external_bytes: expect.any(Number),
      },
      monitors: {
        total: 0,
        running: 0,
        paused: 0,
        by_kind: {
          http: 0,
          tcp: 0,
          ping: 0,
          dns: 0,
          tls: 0,
          heartbeat: 0,
          smtp: 0,
          docker: 0,
          redis: 0,
          postgres: 0,
          mysql: 0,
          mqtt: 0,
          grpc: 0,
        },
      },
      checks_per_min: 0,
      database: {
        size_bytes: fs.statSync(path.join(t.dataDir, 'farsight.db')).size,
        wal_bytes: expect.any(Number),
        writable: true,
        failing_since: null,
        last_error: null,
      },
      writer: {
        queue_length: 0,
        last_flush_at: null,
        last_flush_ms: null,
        written: 0,
        failures: 0,
        failing_in_row: 0,
        dropped: 0,
        last_error: null,
        last_error_at: null,
      },
      scheduler: {
        scheduled: 0,
        in_flight: 0,
        lateness_p50_ms: 0,
        lateness_p99_ms: 0,
        lateness_max_ms: 0,
        lateness_samples: 0,
      },
      canary: {
        detection: 'pending',
        blind: false,
        blind_since: null,
        canaries: [{ canary: `127.0.0.1:${canaryPort}`, answered: false }],
      },
      outbox: { pending: 0, sending: 0, retrying: 0, sent: 0, failed: 0 },
      // No mail provider here: the sign-in notice of setup is not attempted, so nothing failed.
      email: {
        configured: false,
        providers: [],
        daily_cap: 200,
        sent_today: 0,
        failed_today: 0,
        cap_reached: false,
        note: 'mail is not configured: set FARSIGHT_SMTP (and FARSIGHT_MAIL_FROM) to get sign-in notices, password-reset links and email alerts',
      },
      egress: { bytes_per_day: 0, checks_per_day: 0, by_kind: {} },
      problems: expect.any(Array),
    });
    expect(d.database.wal_bytes).toBe(fs.statSync(path.join(t.dataDir, 'farsight.db-wal')).size);
    expect(d.memory.rss_bytes).toBeGreaterThan(d.memory.heap_used_bytes);
  });

  it('shows a fresh install without a mail provider as a state, not a failure: no delivery row, no logged problem', async () => {
    const d = await get();
    expect(await t.db.query('SELECT * FROM deliveries')).toEqual([]);
    expect(d.email).toMatchObject({
      configured: false,
      failed_today: 0,
      note: expect.stringMatching(/^mail is not configured: set FARSIGHT_SMTP/),
    });
    expect(d.problems.filter((p: { context: string }) => p.context === 'mail')).toEqual([]);
  });

  it('needs sign-in', async () => {
    expect((await t.http.get('/api/v1/diagnostics').expect(401)).body.error.code).toBe('sign_in');
  });

  it('counts monitors by kind, checks per minute, the writer queue and its last flush, and the egress of running monitors', async () => {
    const post = (body: unknown) =>
      t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(body as object)
        .expect(201);
    const id = (await post(tcpMonitor({ interval_s: 60 }))).body.id;
    await post(tcpMonitor({ name: 'Paused', paused: true }));
    await post(heartbeatMonitor());
    await post(httpMonitor({}, { auth: { type: 'bearer', token: 'diagnostic-secret-token' } }));
    const engine = t.app.get(EngineService);
    const writer = t.app.get(CheckWriter);
    await writer.flush();
    const record = (at: number) =>
      engine.record(
        id,
        {
          at_ms: at,
          outcome: 'up',
          latency_ms: 3,
          phases: { ...NO_PHASES },
          status: null,
          error: null,
          cert: null,
          detail: null,
        },
        { kind: 'manual' },
      );
    record(t.clock.now());
    record(t.clock.now() + 1);

    const before = await get();
    expect(before.monitors).toEqual({
      total: 4,
      running: 3,
      paused: 1,
      by_kind: {
        http: 1,
        tcp: 2,
        ping: 0,
        dns: 0,
        tls: 0,
        heartbeat: 1,
        smtp: 0,
        docker: 0,
        redis: 0,
        postgres: 0,
        mysql: 0,
        mqtt: 0,
        grpc: 0,
      },
    });
    expect(before.checks_per_min).toBe(2);
    expect(before.writer.queue_length).toBe(2);
    expect(before.egress.by_kind.tcp).toEqual({
      monitors: 1,
      checks_per_day: 1440,
      bytes_per_day: 1440 * TCP_OPEN_CLOSE_BYTES,
    });
    expect(before.egress.by_kind.heartbeat).toEqual({ monitors: 1, checks_per_day: 86_400 / 86_400, bytes_per_day: 0 });
    expect(before.egress.by_kind.http.bytes_per_day).toBeGreaterThan(1440 * TCP_OPEN_CLOSE_BYTES);
    expect(before.egress.bytes_per_day).toBe(
      before.egress.by_kind.tcp.bytes_per_day + before.egress.by_kind.http.bytes_per_day,
    );

    t.clock.advance(5000);
    await writer.flush();
    const after = await get();
    expect(after.writer).toMatchObject({
      queue_length: 0,
      written: 2,
      last_flush_at: new Date(t.clock.now()).toISOString(),
    });
    expect(JSON.stringify(after)).not.toContain('diagnostic-secret-token');
  });

  it('shows the canaries and whether each has answered', async () => {
    await t.app.get(BlindGate).probe();
    expect((await get()).canary).toEqual({
      detection: 'ok',
      blind: false,
      blind_since: null,
      canaries: [{ canary: `127.0.0.1:${canaryPort}`, answered: true }],
    });
  });

  it('counts outbox messages by state and failed emails of today', async () => {
    const now = t.clock.now();
    const far = now + 86_400_000;
    for (const state of ['sent', 'sent', 'failed', 'retrying']) {
      await t.db.query('INSERT INTO outbox (channel_id, state, created_at, due_at) VALUES (1, ?, ?, ?)', [
        state,
        now,
        far,
      ]);
    }
    await t.db.query(
      "INSERT INTO deliveries (at, channel_id, channel_name, ok, summary, email) VALUES (?, 1, 'Mail', 0, 'x', 1)",
      [now],
    );
    await t.db.query(
      "INSERT INTO deliveries (at, channel_id, channel_name, ok, summary, email) VALUES (?, 1, 'Mail', 0, 'x', 1)",
      [now - 86_400_000],
    );
    const d = await get();
    expect(d.outbox).toEqual({ pending: 0, sending: 0, retrying: 1, sent: 2, failed: 1 });
    expect(d.email).toMatchObject({
      sent_today: 0,
      failed_today: 1 /* the alert email; the sign-in notice of setup was not attempted */,
    });
  });

  it('lists recent warnings and errors newest first, with secrets masked', async () => {
    const log = new Logger('diagnostics-test');
    log.warn('retrying https://alice:hunter2@smtp.example.com with token=abc123');
    log.error('request with fs_0123456789abcdef0123456789abcdef0123456789abcdef failed');
    const problems = (await get()).problems as { at: string; level: string; context: string; message: string }[];
    expect(problems.slice(0, 2)).toEqual([
      {
        at: expect.any(String),
        level: 'error',
        context: 'diagnostics-test',
        message: 'request with fs_******** failed',
      },
      {
        at: expect.any(String),
        level: 'warn',
        context: 'diagnostics-test',
        message: 'retrying https://alice:********@smtp.example.com with token=********',
      },
    ]);
    expect(problems.length).toBeLessThanOrEqual(50);
  });
});
