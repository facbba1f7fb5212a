/**
 * GET /metrics on the real app: who may read it, what it says after real checks against loopback
 * servers, Debian's `promtool check metrics` on the answer, and a real Prometheus server that
 * scrapes it once on 127.0.0.1 and answers the series through its own query API.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startChild, stopChild, Child } from '../../harness/children';
import { freePort } from '../../harness/paths';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';
import { waitFor } from '../support/wait-for';

describe('GET /metrics', () => {
  let t: TestApp;
  let cookie: string;
  let read: string;
  let port: number;
  let open: net.Server;
  let closedPort: number;

  beforeAll(async () => {
    open = net.createServer((s) => s.end());
    await new Promise<void>((r) => open.listen(0, '127.0.0.1', r));
    closedPort = await freePort();
    t = await startApp();
    ({ cookie } = await createOwner(t));
    read = await createKey(t, cookie, 'read');
    const write = bearer(await createKey(t, cookie, 'write'));
    const openPort = (open.address() as net.AddressInfo).port;
    const made = async (body: Record<string, unknown>) =>
      (await t.http.post('/api/v1/monitors').set(write).send(body).expect(201)).body as { id: number };
    const db = await made(tcpMonitor({ name: 'db', group: 'core', tcp: { host: '127.0.0.1', port: openPort } }));
    // A group with every character the format escapes.
    const gone = await made(
      tcpMonitor({
        name: 'gone',
        group: 'a "quoted"\\group',
        confirm_after: 1,
        tcp: { host: '127.0.0.1', port: closedPort },
      }),
    );
    await made(tcpMonitor({ name: 'asleep', paused: true, tcp: { host: '127.0.0.1', port: openPort } }));
    for (const m of [db, gone]) await t.http.post(`/api/v1/monitors/${m.id}/check`).set(write).send({}).expect(200);
    const server = t.app.getHttpServer() as import('node:http').Server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => open.close(r));
  });

  const scrape = async () => (await t.http.get('/metrics').set(bearer(read)).expect(200)).text;

  it('asks for a key or a session without one, in the error envelope, while metrics_public is off', async () => {
    const res = await t.http.get('/metrics').expect(401);
    expect(res.body.error.code).toBe('sign_in');
    expect(res.body.error.message).toContain('metrics_public');
    await t.http.get('/metrics').set(bearer('fs_not_a_key')).expect(401);
    await t.http.get('/metrics').set('Cookie', cookie).expect(200);
  });

  it('answers the text format 0.0.4 with the monitors in slug order and their live state', async () => {
    const res = await t.http.get('/metrics').set(bearer(read)).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.text.split('\n');
    expect(lines).toContain('farsight_monitor_up{monitor="db",kind="tcp",group="core"} 1');
    expect(lines).toContain('farsight_monitor_up{monitor="gone",kind="tcp",group="a \\"quoted\\"\\\\group"} 0');
    // Paused: no `up` sample, but its status says so.
    expect(res.text).not.toMatch(/farsight_monitor_up\{monitor="asleep"/);
    expect(lines).toContain('farsight_monitor_status{monitor="asleep",kind="tcp",group="",status="paused"} 1');
    expect(lines).toContain('farsight_monitor_status{monitor="db",kind="tcp",group="core",status="down"} 0');
    expect(lines).toContain('farsight_checks_total{monitor="db",result="up"} 1');
    expect(lines).toContain('farsight_checks_total{monitor="gone",result="down"} 1');
    expect(lines).toContain('farsight_monitor_in_maintenance{monitor="db",kind="tcp",group="core"} 0');
    expect(lines).toContain('farsight_incidents_open 1');
    expect(lines).toContain('farsight_blind 0');
    expect(res.text).toMatch(
      /^farsight_monitor_latency_seconds\{monitor="db",kind="tcp",group="core"\} \d+(\.\d+)?(e-\d+)?$/m,
    );
    const ups = lines.filter((l) => l.startsWith('farsight_monitor_status{') && l.endsWith('status="up"} 0'));
    expect(ups.map((l) => /monitor="([^"]+)"/.exec(l)?.[1])).toEqual(['asleep', 'gone']);
    // Every family is named with HELP and TYPE before its samples.
    const families = new Set(lines.filter((l) => l && !l.startsWith('#')).map((l) => /^[a-z_]+/.exec(l)?.[0]));
    for (const f of families) {
      expect(res.text).toContain(`# HELP ${f} `);
      expect(res.text).toMatch(new RegExp(`^# TYPE ${f} (gauge|counter)$`, 'm'));
    }
  });

  it('passes promtool check metrics (Debian prometheus)', async () => {
    const out = spawnSync('promtool', ['check', 'metrics'], { input: await scrape(), encoding: 'utf8' });
    expect(`${out.stdout}${out.stderr}`.trim()).toBe('');
    expect(out.status).toBe(0);
  });

  it('answers without credentials once the owner turns metrics_public on, and not after it is off again', async () => {
    const set = (v: boolean) =>
      t.http
        .patch('/api/v1/settings')
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .send({ metrics_public: v })
        .expect(200);
    expect((await set(true)).body.metrics_public).toBe(true);
    await t.http.get('/metrics').expect(200);
    await set(false);
    await t.http.get('/metrics').expect(401);
  });

  it('is scraped by a real Prometheus server on loopback, whose query API then has the series', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-prom-'));
    const promPort = await freePort();
    const config = path.join(dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s }',
        'scrape_configs:',
        '  - job_name: farsight',
        '    metrics_path: /metrics',
        `    authorization: { type: Bearer, credentials: ${read} }`,
        `    static_configs: [{ targets: ['127.0.0.1:${port}'] }]`,
        '',
      ].join('\n'),
    );
    let prom: Child | null = null;
    try {
      prom = startChild('prometheus', [
        `--config.file=${config}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ]);
      const query = async (q: string) => {
        const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(q)}`).catch(
          () => null,
        );
        if (!res?.ok) return [];
        const body = (await res.json()) as {
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.data.result;
      };
      const up = await waitFor(
        'Prometheus to have scraped farsight_monitor_up',
        async () => {
          const r = await query('farsight_monitor_up');
          return r.length === 2 ? r : null;
        },
        60_000,
      );
      const bySlug = Object.fromEntries(up.map((r) => [r.metric.monitor, r]));
      expect(bySlug.db.value[1]).toBe('1');
      expect(bySlug.db.metric).toMatchObject({ kind: 'tcp', group: 'core', job: 'farsight' });
      expect(bySlug.gone.value[1]).toBe('0');
      expect(bySlug.gone.metric.group).toBe('a "quoted"\\group');
      const health = await query('up{job="farsight"}');
      expect(health[0].value[1]).toBe('1');
      const checks = await query('farsight_checks_total{result="up"}');
      expect(checks.map((r) => r.metric.monitor).sort()).toEqual(['asleep', 'db', 'gone']);
    } finally {
      if (prom) await stopChild(prom, 5_000);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
