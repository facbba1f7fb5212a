/**
 * What the database of a stopped (or killed) service must hold, read straight from the file with
 * sqlite3, before the next start can repair or hide anything.
 */
import * as sqlite3 from 'sqlite3';

export function query<T>(file: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.all(sql, params, (e, rows) => {
        db.close();
        if (e) reject(e);
        else resolve(rows as T[]);
      });
    });
  });
}

export function write(file: string, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => {
      if (err) return reject(err);
      db.run(sql, params, (e) => {
        db.close();
        if (e) reject(e);
        else resolve();
      });
    });
  });
}

export async function integrity(file: string): Promise<string> {
  const rows = await query<{ integrity_check: string }>(file, 'PRAGMA integrity_check');
  return rows.map((r) => r.integrity_check).join('; ');
}

/** Each names a broken rule and selects the rows that break it (none when the rule holds). */
export const INVARIANTS: Record<string, string> = {
  'a Down state without its open incident': `SELECT s.monitor_id FROM monitor_state s WHERE s.status = 'down'
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.monitor_id = s.monitor_id AND i.ended_at IS NULL)`,
  'an open incident on a monitor that is not Down': `SELECT i.id FROM incidents i JOIN monitor_state s ON s.monitor_id = i.monitor_id
    WHERE i.ended_at IS NULL AND s.status != 'down'`,
  'more than one open incident for a monitor': `SELECT monitor_id FROM incidents WHERE ended_at IS NULL GROUP BY monitor_id HAVING COUNT(*) > 1`,
  'a state naming an incident that is not its open one': `SELECT s.monitor_id FROM monitor_state s WHERE s.incident_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.id = s.incident_id AND i.ended_at IS NULL AND i.monitor_id = s.monitor_id)`,
  'a down transition (timeline line) without its incident': `SELECT e.id FROM events e WHERE e.kind = 'down'
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.monitor_id = e.monitor_id AND i.down_at = e.at)`,
  'an incident without its down transition': `SELECT i.id FROM incidents i
    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.kind = 'down' AND e.monitor_id = i.monitor_id AND e.at = i.down_at)`,
  'a recovery (up line) without the incident it ended': `SELECT e.id FROM events e WHERE e.kind = 'up'
    AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.monitor_id = e.monitor_id AND i.ended_at = e.at AND i.end_reason = 'recovered')`,
  'an incident without the check that confirmed it': `SELECT i.id FROM incidents i JOIN monitors m ON m.id = i.monitor_id
    WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.monitor_id = i.monitor_id AND c.at = i.down_at AND c.outcome = 2)`,
  'an alert message without events': `SELECT o.id FROM outbox o WHERE NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.outbox_id = o.id)`,
};

/** Every broken rule, with up to 5 offending rows each. */
export async function brokenInvariants(file: string): Promise<string[]> {
  const out: string[] = [];
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    const bad = await query(file, sql);
    if (bad.length)
      out.push(`${name}: ${JSON.stringify(bad.slice(0, 5))}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`);
  }
  return out;
}
