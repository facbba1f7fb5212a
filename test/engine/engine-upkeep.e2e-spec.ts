import { EngineService } from '../../src/engine/engine.service';
import { RetentionService } from '../../src/history/retention.service';
import { CheckWriter } from '../../src/history/writer';
import { NO_PHASES } from '../../src/probes/check-result';
import { farmCerts } from '../../harness/servers/certs';
import { HttpFarm, startHttpFarm } from '../../harness/servers/http-farm';
import { TestApp, bearer, createKey, createOwner, startApp, createMonitor } from '../support/app';
import { httpMonitor, tcpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

const DAY = 86_400_000;

describe('second opinion, certificate warnings and retention', () => {
  let t: TestApp;
  let write: string;
  let engine: EngineService;
  let target: SwitchServer;
  let farm: HttpFarm;

  beforeAll(async () => {
    const certs = farmCerts();
    farm = await startHttpFarm(certs.valid);
    target = await startSwitchServer();
    t = await startApp({}, { ca: certs.ca });
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    engine = t.app.get(EngineService);
  });
  afterAll(async () => {
    await t.close();
    await target.close();
    await farm.close();
  });

  const events = (kind: string) =>
    t.app
      .get(CheckWriter)
      .flush()
      .then(() =>
        t.db.query<{ text: string; data: string }[]>('SELECT text, data FROM events WHERE kind = ? ORDER BY id', [
          kind,
        ]),
      );

  it('does not count a failure that a second check contradicts, and records a path problem', async () => {
    const m = await createMonitor(t, write, httpMonitor({ name: 'flaky', confirm_after: 1 }, { url: target.url }));
    target.failNext = 1;
    engine.tick();
    await engine.idle();
    expect(target.hits).toBe(2);
    const state = (await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200)).body.state;
    expect(state.status).toBe('up');
    const checks = (await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(write)).expect(200)).body.items;
    expect(checks.map((c: { outcome: string }) => c.outcome)).toEqual(['up', 'down']);
    expect(checks[1].detail).toMatch(/network path problem/);
    const paths = await events('path');
    expect(paths).toHaveLength(1);
    expect(JSON.parse(paths[0].data)).toEqual({ host: new URL(target.url).host });
  });

  it('confirms Down when the second check fails too', async () => {
    const m = await createMonitor(
      t,
      write,
      httpMonitor({ name: 'broken', confirm_after: 1 }, { url: `${target.url}x` }),
    );
    target.failNext = 2;
    engine.tick();
    await engine.idle();
    expect((await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write))).body.state.status).toBe('down');
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('warns once per threshold per certificate', async () => {
    const m = await createMonitor(t, write, {
      name: 'cert',
      kind: 'tls',
      tls: { host: '127.0.0.1', port: farm.https.port, tls_warn_days: 365 },
    });
    for (let i = 0; i < 3; i++) {
      await t.http.post(`/api/v1/monitors/${m.id}/check`).set(bearer(write)).expect(200);
    }
    const lines = await events('cert');
    expect(lines).toHaveLength(1);
    expect(lines[0].text).toMatch(/^cert: the certificate expires in \d+ days/);
    expect((await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write))).body.state.cert_expires_at).toMatch(/Z$/);
  });

  it('prunes raw checks, hourly rollups and timeline lines past their retention, and keeps the rest', async () => {
    const m = await createMonitor(t, write, tcpMonitor({ name: 'old' }));
    const now = t.clock.now();
    for (const ageDays of [40, 10, 6, 1]) {
      engine.record(
        m.id,
        {
          at_ms: now - ageDays * DAY,
          outcome: 'up',
          latency_ms: 5,
          phases: { ...NO_PHASES },
          status: null,
          error: null,
          cert: null,
          detail: null,
        },
        { kind: 'manual' },
      );
    }
    await t.db.query("INSERT INTO events (at, kind, text) VALUES (?, 'old', 'ancient'), (?, 'old', 'recent')", [
      now - 500 * DAY,
      now - DAY,
    ]);
    await t.app.get(CheckWriter).flush();
    const report = await t.app.get(RetentionService).run();
    expect(report.checks).toBe(2);
    expect(report.hours).toBeGreaterThanOrEqual(1);
    expect(report.events).toBe(1);
    const left = await t.db.query<{ at: number }[]>('SELECT at FROM checks WHERE monitor_id = ? ORDER BY at', [m.id]);
    expect(left.map((r) => Math.round((now - r.at) / DAY))).toEqual([6, 1]);
    const days = await t.db.query<unknown[]>('SELECT day FROM rollup_day WHERE monitor_id = ?', [m.id]);
    expect(days).toHaveLength(4);
  });
});
