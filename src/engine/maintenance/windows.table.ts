/**
 * The `maintenance_windows` table: every statement that reads or writes it (docs/storage.md, "One
 * home per table"). Reads go through Database.read() (committed rows only); writes take the
 * caller's transaction. `monitors` and `schedule` are JSON text; a once schedule keeps epoch ms.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../../db/database';
import type { Schedule } from './schedule';
import type { WindowTimes } from './window-state';

export interface WindowRow extends WindowTimes {
  id: number;
  title: string;
  description: string | null;
  /** null: every monitor. */
  monitors: number[] | null;
  public: boolean;
  announce_h: number;
  created_at: number;
  updated_at: number;
}

/** What a create or an update writes (the id and created_at are the table's). */
export type WindowFields = Omit<WindowRow, 'id' | 'created_at'>;

const COLUMNS = [
  'id',
  'title',
  'description',
  'monitors',
  'schedule',
  'public',
  'announce_h',
  'manual_start',
  'manual_end',
  'stopped_until',
  'ended_at',
  'created_at',
  'updated_at',
] as const;
const WRITTEN = COLUMNS.filter((c) => c !== 'id' && c !== 'created_at');
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM maintenance_windows`;

type Stored = Record<(typeof COLUMNS)[number], unknown>;

function fromStored(r: Stored): WindowRow {
  return {
    id: r.id as number,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    monitors: r.monitors === null ? null : (JSON.parse(r.monitors as string) as number[]),
    schedule: JSON.parse(r.schedule as string) as Schedule,
    public: r.public === 1,
    announce_h: r.announce_h as number,
    manual_start: (r.manual_start as number | null) ?? null,
    manual_end: (r.manual_end as number | null) ?? null,
    stopped_until: (r.stopped_until as number | null) ?? null,
    ended_at: (r.ended_at as number | null) ?? null,
    created_at: r.created_at as number,
    updated_at: r.updated_at as number,
  };
}

function values(f: WindowFields): unknown[] {
  return WRITTEN.map((c) => {
    if (c === 'monitors') return f.monitors === null ? null : JSON.stringify(f.monitors);
    if (c === 'schedule') return JSON.stringify(f.schedule);
    if (c === 'public') return f.public ? 1 : 0;
    return f[c];
  });
}

/** Every window (the engine loads them all at start: there are tens, not thousands). */
export async function allWindows(db: Database): Promise<WindowRow[]> {
  return (await db.read<Stored[]>(`${SELECT} ORDER BY id`)).map(fromStored);
}

export async function windowById(db: Database, id: number): Promise<WindowRow | null> {
  const [row] = await db.read<Stored[]>(`${SELECT} WHERE id = ?`, [id]);
  return row ? fromStored(row) : null;
}

/** In the caller's transaction: the row as that transaction sees it. */
export async function windowByIdIn(m: EntityManager, id: number): Promise<WindowRow | null> {
  const [row] = (await m.query(`${SELECT} WHERE id = ?`, [id])) as Stored[];
  return row ? fromStored(row) : null;
}

export async function windowByTitleIn(m: EntityManager, title: string): Promise<WindowRow | null> {
  const [row] = (await m.query(`${SELECT} WHERE title = ? ORDER BY id LIMIT 1`, [title])) as Stored[];
  return row ? fromStored(row) : null;
}

export async function insertWindowIn(m: EntityManager, f: WindowFields, now: number): Promise<number> {
  // TypeORM's sqlite runner answers an INSERT with the new rowid.
  return (await m.query(
    `INSERT INTO maintenance_windows (${WRITTEN.join(', ')}, created_at) VALUES (${WRITTEN.map(() => '?').join(', ')}, ?)`,
    [...values(f), now],
  )) as number;
}

export async function updateWindowIn(m: EntityManager, id: number, f: WindowFields): Promise<void> {
  await m.query(`UPDATE maintenance_windows SET ${WRITTEN.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
    ...values(f),
    id,
  ]);
}

export async function deleteWindowIn(m: EntityManager, id: number): Promise<void> {
  await m.query('DELETE FROM maintenance_windows WHERE id = ?', [id]);
}

/**
 * A deleted monitor leaves every window that names it; returns the windows changed (their ids
 * and titles, for the timeline). A window left with no monitor stays, covering none.
 */
export async function removeMonitorIn(
  m: EntityManager,
  monitorId: number,
  now: number,
): Promise<{ id: number; title: string }[]> {
  const rows = (await m.query(
    `SELECT id, title, monitors FROM maintenance_windows
     WHERE monitors IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(monitors) WHERE value = ?)`,
    [monitorId],
  )) as { id: number; title: string; monitors: string }[];
  for (const r of rows) {
    const left = (JSON.parse(r.monitors) as number[]).filter((id) => id !== monitorId);
    await m.query('UPDATE maintenance_windows SET monitors = ?, updated_at = ? WHERE id = ?', [
      JSON.stringify(left),
      now,
      r.id,
    ]);
  }
  return rows.map((r) => ({ id: r.id, title: r.title }));
}
