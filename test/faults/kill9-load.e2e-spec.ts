/**
 * SIGKILL under load (docs/storage.md, "What a crash, a power cut and a SIGTERM can lose"): the
 * built service runs http monitors every 10 s and takes heartbeat pings and failure reports from
 * eight keep-alive clients as fast as it answers (thousands of plain results between the writer's
 * commits), with a webhook channel, while a live-stream client records every incident the service
 * announces. It is killed at a random moment, several times. After each kill, before the next
 * start, the database must pass `PRAGMA integrity_check` and hold everything that was announced:
 * every incident with the state it was announced in, the timeline line of its Down (and of its
 * recovery), and the outbox rows of its alerts; and the invariants of kill9-incidents.e2e-spec.ts
 * (beside this file) hold.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { request, requestJson } from '../../harness/http-client';
import { KeyPool, Service } from '../../harness/service';
import { SseClient } from '../../harness/sse';
import { query } from './support/db-invariants';

const ROUNDS = 4;
const HEARTBEATS = 32;
const HTTP_MONITORS = 60;
const CLIENTS = 8;
/**
 * Pings between two failure reports of one monitor: far from flapping (6 changes in 20 checks),
 * so Downs and Ups are alerted, even when a kill loses the pings that waited for their commit.
 */
const PINGS_PER_FAIL = 40;

interface IncidentEvent {
  id: number;
  monitor_id: number;
  started_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

async function server(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

const INVARIANTS: Record<string, string> = {
  'down without an open incident': `SELECT s.monitor_id FROM monitor_state s WHERE s.status = 'down'
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.monitor_id = s.monitor_id AND i.ended_at IS NULL)`,
  'open incident on a monitor that is not down': `SELECT i.id FROM incidents i JOIN monitor_state s ON s.monitor_id = i.monitor_id
    WHERE i.ended_at IS NULL AND s.status != 'down'`,
  'more than one open incident':
    'SELECT monitor_id FROM incidents WHERE ended_at IS NULL GROUP BY monitor_id HAVING COUNT(*) > 1',
  'incident without its confirming check': `SELECT i.id FROM incidents i
    WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.monitor_id = i.monitor_id AND c.at = i.down_at AND c.outcome = 2)`,
};

describe('SIGKILL under load', () => {
  let dir: string;
  let service: Service | null = null;
  const closers: (() => Promise<void>)[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-kill9-load-'));
  });
  afterAll(async () => {
    if (service && service.child.proc.exitCode === null && service.child.proc.signalCode === null)
      process.kill(service.pid, 'SIGKILL');
    for (const close of closers) await close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`loses no announced transition, incident or outbox row over ${ROUNDS} kills, and the file stays sound`, async () => {
    const receiver = await server((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const target = await server((_req, res) => res.end('ok'));
    closers.push(receiver.close, target.close);
    const file = path.join(dir, 'farsight.db');

    service = await Service.start({ dataDir: dir });
    const keys: KeyPool = await service.adminKeys(1);
    await requestJson('POST', `${service.url}/api/v1/channels`, {
      headers: keys.header(),
      body: {
        kind: 'webhook',
        name: 'hook',
        config: { url: receiver.url, secret: 'a-long-signing-secret-0123456789', headers: [] },
      },
    });
    const created = await requestJson<{ created: string[] }>('POST', `${service.url}/api/v1/monitors/bulk`, {
      headers: keys.header(),
      body: {
        monitors: [
          ...Array.from({ length: HEARTBEATS }, (_, i) => ({
            name: `job ${i}`,
            kind: 'heartbeat',
            interval_s: 3600,
            heartbeat: { grace_s: 600 },
          })),
          ...Array.from({ length: HTTP_MONITORS }, (_, i) => ({
            name: `web ${i}`,
            kind: 'http',
            interval_s: 10,
            timeout_ms: 2000,
            http: { url: `${target.url}p${i}` },
          })),
        ],
      },
    });
    expect(created.created).toHaveLength(HEARTBEATS + HTTP_MONITORS);
    const jobs: string[] = [];
    for (const m of await requestJson<{ items: { id: number; kind: string }[] }>(
      'GET',
      `${service.url}/api/v1/monitors?limit=500&kind=heartbeat`,
      { headers: keys.header() },
    ).then((p) => p.items)) {
      const t = await requestJson<{ heartbeat_url: string }>(
        'POST',
        `${service.url}/api/v1/monitors/${m.id}/heartbeat-token`,
        { headers: keys.header() },
      );
      jobs.push(new URL(t.heartbeat_url).pathname);
    }
    expect(jobs).toHaveLength(HEARTBEATS);

    const announced = new Map<number, IncidentEvent>();
    let pings = 0;
    let alertsChecked = 0;
    // Each monitor's cycle goes on across rounds: a failure report, then PINGS_PER_FAIL pings.
    const turns = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const url = service.url;
      const stream = await SseClient.open(`${url}/api/v1/stream`, keys.header());
      expect(stream.status).toBe(200);
      let stop = false;
      const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
      // Each client owns four monitors and goes round them.
      const traffic = Array.from({ length: CLIENTS }, async (_, c) => {
        const mine = jobs.filter((_j, i) => i % CLIENTS === c);
        for (let n = 0; !stop; n++) {
          const job = mine[n % mine.length];
          const turn = (turns.get(job) ?? 0) % (PINGS_PER_FAIL + 1);
          turns.set(job, turn + 1);
          try {
            if (turn === 0)
              await request('POST', `${url}${job}/fail`, {
                body: 'boom',
                headers: { 'Content-Type': 'text/plain' },
                agent,
                timeoutMs: 5000,
              });
            else await request('GET', `${url}${job}`, { agent, timeoutMs: 5000 });
            pings += 1;
          } catch {
            return; // killed
          }
        }
      });
      // Once the round has announced something, the kill lands anywhere in the next few commits.
      await stream.until(() => stream.of('incident').length > 0, 'an incident announced in this round', 60_000);
      await new Promise((r) => setTimeout(r, 200 + ((round * 1931) % 3500)));
      process.kill(service.pid, 'SIGKILL');
      await service.child.exited;
      stop = true;
      await Promise.all(traffic);
      agent.destroy();
      stream.close();
      for (const e of stream.of<IncidentEvent>('incident')) announced.set(e.data.id, e.data);

      const [check] = await query<{ integrity_check: string }>(file, 'PRAGMA integrity_check');
      expect([round, check.integrity_check]).toEqual([round, 'ok']);
      for (const [name, sql] of Object.entries(INVARIANTS)) {
        const bad = await query(file, sql);
        if (bad.length) throw new Error(`round ${round}: ${name}: ${JSON.stringify(bad)}`);
      }
      const lost: string[] = [];
      for (const inc of announced.values()) {
        const [row] = await query<{
          started_at: number;
          ended_at: number | null;
          end_reason: string | null;
          down_at: number;
        }>(file, 'SELECT started_at, ended_at, end_reason, down_at FROM incidents WHERE id = ?', [inc.id]);
        if (!row) {
          lost.push(`incident ${inc.id}: no row`);
          continue;
        }
        if (row.started_at !== Date.parse(inc.started_at))
          lost.push(`incident ${inc.id}: started ${row.started_at}, announced ${inc.started_at}`);
        if (inc.ended_at !== null && (row.ended_at !== Date.parse(inc.ended_at) || row.end_reason !== inc.end_reason)) {
          lost.push(
            `incident ${inc.id}: announced ended ${inc.ended_at} (${inc.end_reason}), stored ${row.ended_at} (${row.end_reason})`,
          );
        }
        const lines = async (kind: string, at: number) =>
          (
            await query(file, 'SELECT 1 FROM events WHERE monitor_id = ? AND kind = ? AND at = ?', [
              inc.monitor_id,
              kind,
              at,
            ])
          ).length;
        if ((await lines('down', row.down_at)) !== 1) lost.push(`incident ${inc.id}: no timeline line of its Down`);
        const alerts = async (type: string) =>
          (
            await query(
              file,
              "SELECT 1 FROM outbox_events WHERE incident_id = ? AND json_extract(event, '$.type') = ?",
              [inc.id, type],
            )
          ).length;
        const held = async (type: string) =>
          (
            await query(file, "SELECT 1 FROM events WHERE incident_id = ? AND kind = 'alert' AND text LIKE ?", [
              inc.id,
              `${type} alert held:%`,
            ])
          ).length;
        // Every incident has its down alert, or a line saying it was held while the monitor flapped
        // (docs/alerts.md: delivered if it is still down when it settles).
        alertsChecked += 1;
        if ((await alerts('down')) === 0 && (await held('down')) === 0)
          lost.push(`incident ${inc.id}: no outbox row for its Down, and no line saying why`);
        if (inc.end_reason === 'recovered') {
          if ((await lines('up', Date.parse(inc.ended_at!))) !== 1)
            lost.push(`incident ${inc.id}: no timeline line of its recovery`);
          if ((await alerts('up')) === 0 && (await held('up')) === 0)
            lost.push(`incident ${inc.id}: no outbox row for its recovery, and no line saying why`);
        }
      }
      if (lost.length)
        throw new Error(
          `round ${round}: ${lost.length} announced changes are not on disk:\n${lost.slice(0, 20).join('\n')}`,
        );

      service = await Service.start({ dataDir: dir });
    }

    // The rounds really ran under load and really announced changes.
    expect(pings).toBeGreaterThan(ROUNDS * 500);
    expect([...announced.values()].filter((i) => i.end_reason === 'recovered').length).toBeGreaterThanOrEqual(ROUNDS);
    expect(alertsChecked).toBeGreaterThanOrEqual(ROUNDS * HEARTBEATS);
    // After the last restart the service answers from what survived, and stops cleanly.
    const summary = await requestJson<{ open_incidents: number }>('GET', `${service.url}/api/v1/summary`, {
      headers: keys.header(),
    });
    const [{ n }] = await query<{ n: number }>(file, 'SELECT COUNT(*) AS n FROM incidents WHERE ended_at IS NULL');
    expect(summary.open_incidents).toBe(n);
    await service.stop();
    service = null;
    const [check] = await query<{ integrity_check: string }>(file, 'PRAGMA integrity_check');
    expect(check.integrity_check).toBe('ok');
    const [log] = await query<{ n: number }>(file, 'SELECT COUNT(*) AS n FROM check_log');
    expect(log.n).toBe(0); // a clean stop folds everything
  }, 300_000);
});
