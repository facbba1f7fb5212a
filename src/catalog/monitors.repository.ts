/**
 * SQL for monitors and their state rows. Monitors are read on hot paths (lists of thousands,
 * the scheduler), so rows are mapped by hand rather than through entity metadata.
 * Secret values in settings are sealed with the SecretBox on every write and opened on every read
 * (docs/security.md, "Secrets at rest"); nothing else in the code base sees a sealed value.
 */
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/http/api-error';
import { isIdText, isSlug } from '../common/validation/ids';
import { isSealed, SEALED_PREFIX, SECRET_BOX, SecretBox, SecretBoxError } from '../db/secret-box';
import { Database } from '../db/database';
import { readSelectRows, StartedRead, startReadRows } from '../db/bulk-read';
import type { KindSettings } from '../probes/kinds';
import type { MonitorConfig } from '../probes/monitor-config';
import { MonitorStatus } from '../probes/status';
import { JOIN_STATE, LISTED_STATE_COLUMNS } from './monitor-state.table';
import { requireLocationsIn } from './locations.table';
import {
  CONFIG_COLUMN_NAMES,
  configValues,
  INSERT_COLUMNS,
  MONITOR_COLUMNS,
  MonitorRow,
  rowToStored,
  SELECT_ROW,
  StoredMonitor,
  withSecrets,
} from './monitor-row';

export { splitState } from './monitor-state.table';
// The row's types and columns are monitor-row.ts's; the repository's callers get them from here too.
export { MONITOR_COLUMNS } from './monitor-row';
export { publicPlacementRows, publicServiceRows, publicServiceSql } from './public-monitors';
export type { PublicPlacementRow, PublicServiceRow } from './public-monitors';
export type { MonitorRow, StoredMonitor } from './monitor-row';

/** What the stored rows are filtered by (a status is matched by the caller, on the live state). */
export interface MonitorFilter {
  group?: string;
  tag?: string;
  kind?: string;
  /** Lower-case text matched against name, slug and the target description. */
  q?: string;
}

/** The engine's start: every row, as one bulk read (db/bulk-read.ts). */
export function startReadMonitorRows(db: Database): Promise<StartedRead<MonitorRow>> {
  return startReadRows<MonitorRow>(db, MONITOR_COLUMNS, 'FROM monitors');
}

/**
 * One sealed secret value stored in the database, or null when there is none; loadSecretBox uses
 * it to tell "first start" from "the key file went missing" and to check the key at start.
 */
export async function sealedSecretSample(read: (sql: string) => Promise<unknown>): Promise<string | null> {
  const rows = (await read(`SELECT settings FROM monitors WHERE settings LIKE '%"${SEALED_PREFIX}%' LIMIT 1`)) as {
    settings: string;
  }[];
  if (!rows[0]) return null;
  const sealed = new RegExp(`"(${SEALED_PREFIX}[A-Za-z0-9+/=]*)"`).exec(rows[0].settings);
  return sealed ? sealed[1] : null;
}

/** Every monitor's id, in id order (retention's per-monitor pass, the status page's check of named monitors). */
export async function monitorIds(db: Database): Promise<number[]> {
  return (await db.read<{ id: number }[]>('SELECT id FROM monitors ORDER BY id')).map((r) => r.id);
}

/** Every row as stored (sealed secrets, token hash): export and diagnostics read them in one statement. */
export function allMonitorRows(db: Database): Promise<MonitorRow[]> {
  return db.read<MonitorRow[]>(SELECT_ROW);
}

@Injectable()
export class MonitorsRepository implements OnModuleInit {
  private readonly log = new Logger('monitors');
  private readonly seal = (value: string) => this.box.seal(value);
  private readonly open = (value: string) => this.box.open(value);

  constructor(
    private readonly db: Database,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    const sealed = await this.sealClearSecrets();
    if (sealed > 0) this.log.log(`sealed the clear-text secrets of ${sealed} monitors with the secret key`);
  }

  /** A row as read from the database, secrets opened; names the monitor when one cannot be. */
  /**
   * A row for lists and filters with its secrets left sealed: answers mask every secret anyway, so
   * opening a thousand of them per list would be wasted work. Never hand this to a checker.
   */
  toListed(r: MonitorRow): StoredMonitor {
    return rowToStored(r, (sealed) => sealed);
  }

  toStored(r: MonitorRow): StoredMonitor {
    try {
      return rowToStored(r, this.open);
    } catch (err) {
      if (err instanceof SecretBoxError) throw new SecretBoxError(`monitor ${r.id} ("${r.slug}"): ${err.message}`);
      throw err;
    }
  }

  /**
   * Seals secret values stored in clear text (by a version before encryption at rest). Runs at
   * every start and finds nothing once done. The prefilter is a superset of the rows with a secret
   * (every one has an auth object or a header with "secret":true); the kind's secret schema decides.
   */
  async sealClearSecrets(): Promise<number> {
    const rows = await this.db.read<{ id: number; settings: string }[]>(
      `SELECT id, settings FROM monitors WHERE kind = 'http' AND (json_extract(settings, '$.auth') IS NOT NULL OR settings LIKE '%"secret":true%')`,
    );
    const changed: [string, number][] = [];
    for (const r of rows) {
      let clear = false;
      const settings = withSecrets('http', JSON.parse(r.settings) as KindSettings['http'], (v) => {
        if (isSealed(v)) return v;
        clear = true;
        return this.box.seal(v);
      });
      if (clear) changed.push([JSON.stringify(settings), r.id]);
    }
    if (changed.length === 0) return 0;
    // secure_delete zeroes the space the clear text leaves behind in the rewritten pages; VACUUM then
    // rebuilds the file so no older copy survives in free pages, and the checkpoint empties the WAL.
    // Both cost time proportional to the database, once: the next start finds nothing to seal.
    await this.db.query('PRAGMA secure_delete = ON');
    try {
      await this.db.tx(async (m) => {
        for (const [settings, id] of changed)
          await m.query('UPDATE monitors SET settings = ? WHERE id = ?', [settings, id]);
      });
      await this.db.query('VACUUM');
      await this.db.query('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      await this.db.query('PRAGMA secure_delete = OFF');
    }
    return changed.length;
  }

  /** A monitor by `<id>` or `slug:<slug>`, as every `/monitors/{id}` route accepts it; not_found otherwise. */
  async resolve(ref: string): Promise<StoredMonitor> {
    let found: StoredMonitor | null = null;
    if (ref.startsWith('slug:')) {
      const slug = ref.slice(5);
      if (isSlug(slug)) found = await this.findBySlug(slug);
    } else if (isIdText(ref)) {
      found = await this.findById(Number(ref));
    }
    if (!found) throw ApiError.notFound('monitor');
    return found;
  }

  async findById(id: number, m: EntityManager = this.db.manager): Promise<StoredMonitor | null> {
    const rows = await m.query<MonitorRow[]>(`${SELECT_ROW} WHERE id = ?`, [id]);
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  async findBySlug(slug: string, m: EntityManager = this.db.manager): Promise<StoredMonitor | null> {
    const rows = await m.query<MonitorRow[]>(`${SELECT_ROW} WHERE slug = ?`, [slug]);
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  async findBySlugs(slugs: string[], m: EntityManager = this.db.manager): Promise<Map<string, StoredMonitor>> {
    return new Map((await this.rowsBySlugs(slugs, m)).map((r) => [r.slug, this.toStored(r)]));
  }

  /** The stored rows (sealed, with the heartbeat token's hash) of these slugs, 500 to a statement. */
  async rowsBySlugs(slugs: string[], m: EntityManager = this.db.manager): Promise<MonitorRow[]> {
    const out: MonitorRow[] = [];
    for (let i = 0; i < slugs.length; i += 500) {
      const part = slugs.slice(i, i + 500);
      out.push(
        ...(await m.query<MonitorRow[]>(`${SELECT_ROW} WHERE slug IN (${part.map(() => '?').join(',')})`, part)),
      );
    }
    return out;
  }

  /** hash → slug of the monitor holding each of these heartbeat token hashes (import's clash check). */
  async slugsByTokenHash(hashes: string[], m: EntityManager = this.db.manager): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < hashes.length; i += 500) {
      const part = hashes.slice(i, i + 500);
      const rows = await m.query<{ slug: string; hash: string }[]>(
        `SELECT slug, heartbeat_token_hash AS hash FROM monitors WHERE heartbeat_token_hash IN (${part.map(() => '?').join(',')})`,
        part,
      );
      for (const r of rows) out.set(r.hash, r.slug);
    }
    return out;
  }

  /** Slugs in use that start with `base` (for picking base-2, base-3, ...), other than monitor `exceptId`'s. */
  async slugsLike(
    base: string,
    m: EntityManager = this.db.manager,
    exceptId: number | null = null,
  ): Promise<Set<string>> {
    const rows = await m.query<{ slug: string }[]>(
      "SELECT slug FROM monitors WHERE (slug = ? OR slug LIKE ? ESCAPE '\\') AND id IS NOT ?",
      [base, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`, exceptId],
    );
    return new Set(rows.map((r) => r.slug));
  }

  /**
   * Monitor rows with their state columns (`s_<column>`; splitState reads them), filtered, newest
   * first: one page (limit + 1 rows), or every match when the filter has `q`.
   */
  async list(filter: MonitorFilter, limit: number, beforeId: number | null): Promise<ListedRow[]> {
    const { sql, params } = this.selectSql(LISTED_COLUMNS, filter, filter.q === undefined ? limit : null, beforeId);
    return this.db.read<ListedRow[]>(sql, params);
  }

  /**
   * The page of list() as its heads only (id, updated_at, muted_until, stored status): a tenth of the cost of
   * whole rows, for a caller that keeps each monitor's answer and needs whole rows only for the
   * ones that changed (listedByIds). No `q` here: matching text needs the whole row.
   */
  async listHeads(
    filter: Omit<MonitorFilter, 'q'>,
    limit: number | null,
    beforeId: number | null,
  ): Promise<ListedHead[]> {
    const { sql, params } = this.selectSql(HEAD_SELECT, filter, limit, beforeId);
    return readSelectRows<ListedHead>(this.db, HEAD_COLUMNS, sql, 'id DESC', params);
  }

  /**
   * The `before` cursors of the unfiltered list's pages after the first (ids, newest first, as
   * select() pages them), up to `pages` pages in all: what a client following next_cursor asks.
   */
  async pageCursors(limit: number, pages: number): Promise<number[]> {
    const ids = (
      await this.db.read<{ id: number }[]>('SELECT id FROM monitors ORDER BY id DESC LIMIT ?', [
        limit * (pages - 1) + 1,
      ])
    ).map((r) => r.id);
    const out: number[] = [];
    for (let k = 1; k < pages && ids.length > k * limit; k++) out.push(ids[k * limit - 1]);
    return out;
  }

  /** Whole list rows (as list() answers them) of these monitors; a deleted one is simply missing. */
  async listedByIds(ids: readonly number[]): Promise<ListedRow[]> {
    const out: ListedRow[] = [];
    // A page is at most 500; SQLite's limit on bound parameters is higher, but not unlimited.
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const sql = `${listedFrom(LISTED_COLUMNS)} WHERE m.id IN (${part.map(() => '?').join(', ')})`;
      out.push(...(await this.db.read<ListedRow[]>(sql, part)));
    }
    return out;
  }

  private selectSql(
    columns: string,
    filter: MonitorFilter,
    limit: number | null,
    beforeId: number | null,
  ): { sql: string; params: unknown[] } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.group !== undefined) {
      where.push('m.group_name = ?');
      params.push(filter.group);
    }
    if (filter.kind) {
      where.push('m.kind = ?');
      params.push(filter.kind);
    }
    if (filter.tag !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(m.tags) t WHERE t.value = ?)');
      params.push(filter.tag);
    }
    if (beforeId !== null) {
      where.push('m.id < ?');
      params.push(beforeId);
    }
    const sql = `${listedFrom(columns)}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY m.id DESC ${limit === null ? '' : `LIMIT ${limit + 1}`}`;
    return { sql, params };
  }

  async insert(m: EntityManager, c: MonitorConfig, now: number, tokenHash: string | null): Promise<number> {
    await requireLocationsIn(m, c.locations);
    const cols = INSERT_COLUMNS;
    // TypeORM's sqlite runner answers an INSERT with the new rowid.
    return await m.query<number>(
      `INSERT INTO monitors (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      [...configValues(c, this.seal), tokenHash, now, now],
    );
  }

  async update(m: EntityManager, id: number, c: MonitorConfig, now: number): Promise<void> {
    await requireLocationsIn(m, c.locations);
    await m.query(
      `UPDATE monitors SET ${CONFIG_COLUMN_NAMES.map((col) => `${col} = ?`).join(', ')}, updated_at = ? WHERE id = ?`,
      [...configValues(c, this.seal), now, id],
    );
  }

  /** The heartbeat monitor whose ping token has this hash, or null. */
  async heartbeatIdByTokenHash(hash: string): Promise<number | null> {
    const rows = await this.db.read<{ id: number }[]>(
      "SELECT id FROM monitors WHERE heartbeat_token_hash = ? AND kind = 'heartbeat'",
      [hash],
    );
    return rows[0]?.id ?? null;
  }

  /** Monitors whose alert list names this channel. */
  async idsNamingChannel(m: EntityManager, channelId: number): Promise<number[]> {
    const rows = await m.query<{ id: number }[]>(
      'SELECT id FROM monitors WHERE EXISTS (SELECT 1 FROM json_each(monitors.channels) WHERE value = ?)',
      [channelId],
    );
    return rows.map((r) => r.id);
  }

  /** Every monitor's id, slug and parents: the graph `depends_on` is checked against (docs/dependencies.md). */
  async dependencyRows(m: EntityManager): Promise<{ id: number; slug: string; parents: number[] }[]> {
    const rows = await m.query<{ id: number; slug: string; depends_on: string }[]>(
      'SELECT id, slug, depends_on FROM monitors',
    );
    return rows.map((r) => ({ id: r.id, slug: r.slug, parents: JSON.parse(r.depends_on) as number[] }));
  }

  /** The monitors whose depends_on names this one. */
  async dependantsOf(m: EntityManager, id: number): Promise<StoredMonitor[]> {
    const rows = await m.query<MonitorRow[]>(
      `${SELECT_ROW} WHERE EXISTS (SELECT 1 FROM json_each(monitors.depends_on) WHERE value = ?)`,
      [id],
    );
    return rows.map((r) => this.toStored(r));
  }

  /** The monitors whose `locations` name this location (docs/agents.md). */
  async listingLocationIn(m: EntityManager, name: string): Promise<StoredMonitor[]> {
    const rows = await m.query<MonitorRow[]>(
      `${SELECT_ROW} WHERE EXISTS (SELECT 1 FROM json_each(monitors.locations) WHERE value = ?)`,
      [name],
    );
    return rows.map((r) => this.toStored(r));
  }

  async setHeartbeatToken(m: EntityManager, id: number, hash: string | null): Promise<void> {
    await m.query('UPDATE monitors SET heartbeat_token_hash = ? WHERE id = ?', [hash, id]);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM monitors WHERE id = ?', [id]);
  }

  async groupsAndTags(): Promise<{ groups: string[]; tags: string[] }> {
    const groups = await this.db.read<{ g: string }[]>(
      'SELECT DISTINCT group_name AS g FROM monitors WHERE group_name IS NOT NULL ORDER BY g',
    );
    const tags = await this.db.read<{ t: string }[]>(
      'SELECT DISTINCT t.value AS t FROM monitors m, json_each(m.tags) t ORDER BY t',
    );
    return { groups: groups.map((r) => r.g), tags: tags.map((r) => r.t) };
  }
}

export type ListedRow = MonitorRow & Record<string, unknown>;
/** What a list page needs to tell whether a kept answer is still right. */
export interface ListedHead {
  id: number;
  updated_at: number;
  muted_until: number | null;
  /** As stored (the engine's live status may be a write ahead of it). */
  status: MonitorStatus;
}
/** A head's columns as the page's SELECT names them, and as they come out of it. */
const HEAD_SELECT = 'm.id, m.updated_at, m.muted_until, s.status';
const HEAD_COLUMNS = ['id', 'updated_at', 'muted_until', 'status'] as const;

const LISTED_COLUMNS = `${MONITOR_COLUMNS.map((c) => `m.${c}`).join(', ')}, ${LISTED_STATE_COLUMNS}`;
const listedFrom = (columns: string) => `SELECT ${columns} FROM monitors m ${JOIN_STATE}`;
