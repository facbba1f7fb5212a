/**
 * Durability of incidents under SIGKILL: the built service is killed at random moments while
 * heartbeat pings and failure reports, pauses, resumes and deletions flip monitors between Up and
 * Down. After every kill, before the next start (so start-up repairs cannot hide anything), the
 * database must hold: no Down state without its open incident, no open incident on a monitor that
 * is not Down, at most one open incident per monitor, the state naming its incident, the check
 * that confirmed each incident, and no open incident of a deleted monitor.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { KeyPool, Service } from '../../harness/service';
import { request, requestJson } from '../../harness/http-client';

const ROUNDS = 8;
const MONITORS = 12;

function query<T>(file: string, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.all(sql, (e, rows) => {
        db.close();
        if (e) reject(e);
        else resolve(rows as T[]);
      });
    });
  });
}

const INVARIANTS: Record<string, string> = {
  // An affected monitor (docs/dependencies.md) is down in its cause's open incident instead of its own.
  'down without an open incident': `SELECT s.monitor_id FROM monitor_state s WHERE s.status = 'down'
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.monitor_id = s.monitor_id AND i.ended_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.id = s.cause_incident_id AND i.ended_at IS NULL)`,
  'open incident on a monitor that is not down': `SELECT i.id FROM incidents i JOIN monitor_state s ON s.monitor_id = i.monitor_id
    WHERE i.ended_at IS NULL AND s.status != 'down'`,
  'more than one open incident': `SELECT monitor_id FROM incidents WHERE ended_at IS NULL GROUP BY monitor_id HAVING COUNT(*) > 1`,
  'state not naming its incident': `SELECT s.monitor_id FROM monitor_state s JOIN incidents i ON i.monitor_id = s.monitor_id AND i.ended_at IS NULL
    WHERE s.incident_id IS NOT i.id`,
  'state naming an incident that is not open': `SELECT s.monitor_id FROM monitor_state s WHERE s.incident_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.id = s.incident_id AND i.ended_at IS NULL)`,
  'incident without its confirming check': `SELECT i.id FROM incidents i JOIN monitors m ON m.id = i.monitor_id
    WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.monitor_id = i.monitor_id AND c.at = i.down_at AND c.outcome = 2)`,
  'open incident of a deleted monitor': `SELECT id FROM incidents WHERE ended_at IS NULL AND monitor_id NOT IN (SELECT id FROM monitors)`,
};

describe('incidents survive SIGKILL', () => {
  let dir: string;
  let service: Service | null = null;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-kill9-'));
  });
  afterAll(async () => {
    if (service) process.kill(service.pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps its invariants over ${ROUNDS} kills at random moments`, async () => {
    service = await Service.start({ dataDir: dir });
    const keys: KeyPool = await service.adminKeys(1);
    const headers = () => ({ ...keys.header() });
    const create = async (i: number) => {
      const m = await requestJson<{ id: number; heartbeat_url: string }>('POST', `${service!.url}/api/v1/monitors`, {
        headers: headers(),
        body: { name: `job ${i}`, kind: 'heartbeat', interval_s: 3600, heartbeat: { grace_s: 600 } },
      });
      return { id: m.id, hb: new URL(m.heartbeat_url).pathname };
    };
    let monitors = await Promise.all(Array.from({ length: MONITORS }, (_, i) => create(i)));
    let made = MONITORS;

    for (let round = 0; round < ROUNDS; round++) {
      const url = service.url;
      let stop = false;
      // Eight clients flip monitors as fast as the service answers, until the kill.
      const traffic = Array.from({ length: 8 }, async (_, c) => {
        for (let n = 0; !stop; n++) {
          const m = monitors[(c * 7 + n * 5 + round) % monitors.length];
          const pick = (c + n + round) % 23;
          try {
            if (pick === 0) await request('POST', `${url}/api/v1/monitors/${m.id}/pause`, { headers: headers() });
            else if (pick === 1) await request('POST', `${url}/api/v1/monitors/${m.id}/resume`, { headers: headers() });
            else if (pick % 2 === 0)
              await request('POST', `${url}${m.hb}/fail`, { body: 'boom', headers: { 'Content-Type': 'text/plain' } });
            else await request('GET', `${url}${m.hb}`);
          } catch {
            return; // killed
          }
        }
      });
      // One deletion per round, and a new monitor in its place.
      const victim = monitors[round % monitors.length];
      const replacement = (async () => {
        await request('DELETE', `${url}/api/v1/monitors/${victim.id}`, { headers: headers() }).catch(() => undefined);
        try {
          return await create(made++);
        } catch {
          return null;
        }
      })();
      // The kill lands anywhere from before the first write of the round to well after a few.
      await new Promise((r) => setTimeout(r, 300 + ((round * 397) % 2500)));
      process.kill(service.pid, 'SIGKILL');
      await service.child.exited;
      stop = true;
      await Promise.all(traffic);
      const fresh = await replacement;
      monitors = monitors.filter((m) => m.id !== victim.id);
      if (fresh) monitors.push(fresh);

      for (const [name, sql] of Object.entries(INVARIANTS)) {
        const bad = await query(path.join(dir, 'farsight.db'), sql);
        if (bad.length) throw new Error(`round ${round}: ${name}: ${JSON.stringify(bad)}`);
      }
      service = await Service.start({ dataDir: dir });
      // What survived is still there and consistent from the API's side.
      const listed = await requestJson<{ id: number }[] | { items: { id: number }[] }>(
        'GET',
        `${service.url}/api/v1/monitors?limit=500`,
        { headers: headers() },
      );
      const ids = new Set((Array.isArray(listed) ? listed : listed.items).map((m) => m.id));
      monitors = monitors.filter((m) => ids.has(m.id));
    }

    const summary = await requestJson<{ open_incidents: number }>('GET', `${service.url}/api/v1/summary`, {
      headers: headers(),
    });
    const open = await requestJson<{ items: unknown[] }>(
      'GET',
      `${service.url}/api/v1/incidents?state=open&limit=500`,
      { headers: headers() },
    );
    expect(open.items).toHaveLength(summary.open_incidents);
    const [{ n }] = await query<{ n: number }>(path.join(dir, 'farsight.db'), 'SELECT COUNT(*) AS n FROM incidents');
    expect(n).toBeGreaterThan(ROUNDS); // the loop really opened and closed incidents
    await service.stop();
    service = null;
  }, 120_000);
});
