/**
 * A maintenance window's end across a SIGKILL (docs/maintenance.md, "At a restart"), on the built
 * service with a webhook receiver on 127.0.0.1:
 *
 * 1. a monitor whose window ended while the service ran (incident and alert then): a kill and a
 *    restart send nothing more for it;
 * 2. a monitor confirmed Down inside a window, the service killed, the window ending while it is
 *    stopped: at the restart its incident opens AND its down alert goes out, committed together
 *    (every look at the file that finds the incident finds its outbox event too).
 *
 * One restart serves both, and 2's down alert is the positive signal for 1 (the suite waited 25 s
 * in silence instead): an event the restart queues joins its channel's message that is still
 * gathering (20 s from its first event, docs/alerts.md), and a message left in flight at a kill is
 * sent again 10 s after the start (RESEND_AFTER_START_MS), so whatever the restart sends for the
 * first monitor arrives with 2's message or before it. Its outbox is read from the file too (durable before announced: nothing is sent
 * that is not there).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { request, requestJson } from '../../harness/http-client';
import { KeyPool, Service } from '../../harness/service';
import { query } from './support/db-invariants';

interface WireEvent {
  type: string;
  monitor: { id: number } | null;
  message: string;
}

async function receiver() {
  const events: WireEvent[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      events.push(...(JSON.parse(raw) as { events: WireEvent[] }).events);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    events,
    downsOf: (id: number) => events.filter((e) => e.type === 'down' && e.monitor?.id === id),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Polls until `fn` is true (the service runs on its own clock); fails with `what` after `ms`. */
async function until(fn: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a maintenance window that ends around a SIGKILL', () => {
  let dir: string;
  let service: Service | null = null;
  let hook: Awaited<ReturnType<typeof receiver>> | null = null;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-kill9-maintenance-'));
  });
  afterAll(async () => {
    if (service) process.kill(service.pid, 'SIGKILL');
    await hook?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the incident with its down alert at the restart, and never alerts twice', async () => {
    hook = await receiver();
    const rx = hook;
    service = await Service.start({ dataDir: dir });
    const keys: KeyPool = await service.adminKeys(1);
    const api = <T>(method: string, route: string, body?: unknown, ok?: number[]) =>
      requestJson<T>(method, `${service!.url}/api/v1${route}`, { headers: keys.header(), body }, ok);
    await api('POST', '/channels', {
      kind: 'webhook',
      name: 'hook',
      config: { url: rx.url, secret: 'a-long-signing-secret-0123456789', headers: [] },
    });
    const monitor = (name: string) =>
      api<{ id: number; heartbeat_url: string }>('POST', '/monitors', {
        name,
        kind: 'heartbeat',
        interval_s: 3600,
        heartbeat: { grace_s: 600 },
      });
    const fail = async (m: { heartbeat_url: string }) => {
      const r = await request('POST', `${service!.url}${new URL(m.heartbeat_url).pathname}/fail`, {
        body: 'disk full',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(r.status).toBe(200);
    };
    /** A manual window over the monitor, started now until `ms` from now. */
    const windowFor = async (id: number, title: string, ms: number) => {
      const w = await api<{ id: number }>('POST', '/maintenance', {
        title,
        monitors: [id],
        schedule: { kind: 'manual' },
      });
      await api('POST', `/maintenance/${w.id}/start`, { end: new Date(Date.now() + ms).toISOString() }, [200]);
      return Date.now() + ms;
    };
    const stored = (id: number) =>
      query<{ status: string; incident_id: number | null; engine: string }>(
        service!.dbFile,
        'SELECT status, incident_id, engine FROM monitor_state WHERE monitor_id = ?',
        [id],
      );
    /** The monitor's incidents and, read in the same look, how many outbox events name each. */
    const incidentsOnDisk = (id: number) =>
      query<{ id: number; queued: number }>(
        service!.dbFile,
        `SELECT i.id, (SELECT COUNT(*) FROM outbox_events e WHERE e.incident_id = i.id AND e.event LIKE '%"type":"down"%') AS queued
           FROM incidents i WHERE i.monitor_id = ?`,
        [id],
      );

    /** Every outbox message sent: none is in flight, so a kill now leaves nothing to send again. */
    const outboxSent = async () =>
      (await query<{ n: number }>(service!.dbFile, "SELECT COUNT(*) AS n FROM outbox WHERE state != 'sent'"))[0].n ===
      0;

    // 1. A window that ends while the service runs: incident and alert then.
    const db = await monitor('db');
    await windowFor(db.id, 'Upgrade', 3_000);
    await fail(db);
    await until(() => rx.downsOf(db.id).length > 0, 'the down alert of db at the end of its window', 40_000);
    await until(outboxSent, 'the message of db marked sent', 10_000);

    // 2. Down inside a window; killed; the window ends while the service is stopped.
    const nas = await monitor('nas');
    const ends = await windowFor(nas.id, 'Disk swap', 6_000);
    await fail(nas);
    await until(async () => (await stored(nas.id))[0]?.status === 'down', 'the held Down to be on disk', 10_000);
    const [held] = await stored(nas.id);
    expect(held.incident_id).toBeNull();
    expect(JSON.parse(held.engine)).toMatchObject({ heldDown: true });
    process.kill(service.pid, 'SIGKILL');
    await service.child.exited;
    await sleep(Math.max(0, ends - Date.now()) + 500);

    service = await Service.start({ dataDir: dir });
    const looks: { id: number; queued: number }[][] = [];
    await until(
      async () => {
        const rows = await incidentsOnDisk(nas.id);
        looks.push(rows);
        return rows.length > 0;
      },
      'the incident after the restart',
      15_000,
    );
    // Durable before announced, and together: the incident is never on disk without its alert.
    for (const rows of looks) for (const r of rows) expect(r.queued).toBe(1);
    const [incident] = await incidentsOnDisk(nas.id);
    const state = await api<{ state: { status: string; incident_id: number; maintenance: unknown } }>(
      'GET',
      `/monitors/${nas.id}`,
    );
    expect(state.state).toMatchObject({ status: 'down', incident_id: incident.id, maintenance: null });
    const lines = await api<{ items: { text: string; incident_id: number | null }[] }>(
      'GET',
      `/events?kind=down&monitor_id=${nas.id}`,
    );
    expect(lines.items.map((l) => l.text)).toContain(
      'nas is still down after its maintenance ended (while Farsight was stopped)',
    );
    await until(() => rx.downsOf(nas.id).length > 0, 'the down alert of nas', 40_000);
    expect(rx.downsOf(nas.id)).toHaveLength(1);

    // Back to 1: the restart's message has gone out (above), and db's alert is still the one.
    expect(rx.downsOf(db.id)).toHaveLength(1);
    expect(await incidentsOnDisk(db.id)).toEqual([expect.objectContaining({ queued: 1 })]);
    await service.stop();
    service = null;
  }, 180_000);
});
