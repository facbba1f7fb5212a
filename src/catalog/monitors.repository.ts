/**
 * SQL for monitors and their state rows. Monitors are read on hot paths (lists of thousands,
 * the scheduler), so rows are mapped by hand rather than through entity metadata.
 * Secret values in settings are sealed with the SecretBox on every write and opened on every read
 * (docs/security.md, "Secrets at rest"); nothing else in the code base sees a sealed value.
 */
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { isIdText, isSlug } from '../common/ids';
import { isSealed, SEALED_PREFIX, SECRET_BOX, SecretBox, SecretBoxError } from '../db/secret-box';
import { mapSecrets } from '../common/secret-fields';
import { Database } from '../db/database';
import { readSelectRows } from '../db/bulk-read';
import { KIND_SECRETS } from '../probes/kind-secrets';
import type { KindSettings, MonitorKind } from '../probes/kinds';
import { kindConfig, MonitorConfig } from '../probes/monitor-config';
import { MonitorState, MonitorStatus } from '../probes/status';

export interface MonitorRow {
  id: number;
  slug: string;
  name: string;
  kind: MonitorKind;
  group_name: string | null;
  tags: string;
  description: string | null;
  runbook_url: string | null;
  interval_s: number;
  timeout_ms: number;
  confirm_after: number;
  retry_interval_s: number;
  recover_after: number;
  slow_ms: number | null;
  slow_after: number;
  alert_on_slow: number;
  channels: string | null;
  remind_every_min: number;
  paused: number;
  muted_until: number | null;
  public: number;
  public_name: string | null;
  public_group: string | null;
  sort: number;
  settings: string;
  heartbeat_token_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface StoredMonitor {
  id: number;
  config: MonitorConfig;
  createdAt: number;
  updatedAt: number;
  hasHeartbeatToken: boolean;
}

/** What the stored rows are filtered by (a status is matched by the caller, on the live state). */
export interface MonitorFilter {
  group?: string;
  tag?: string;
  kind?: string;
  /** Lower-case text matched against name, slug and the target description. */
  q?: string;
}

/** `open` turns a stored secret value into clear text (SecretBox.open). */
export function rowToStored(r: MonitorRow, open: (value: string) => string): StoredMonitor {
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    hasHeartbeatToken: r.heartbeat_token_hash !== null,
    config: {
      name: r.name,
      slug: r.slug,
      group: r.group_name,
      tags: JSON.parse(r.tags) as string[],
      description: r.description,
      runbook_url: r.runbook_url,
      interval_s: r.interval_s,
      timeout_ms: r.timeout_ms,
      confirm_after: r.confirm_after,
      retry_interval_s: r.retry_interval_s,
      recover_after: r.recover_after,
      slow_ms: r.slow_ms,
      slow_after: r.slow_after,
      alert_on_slow: r.alert_on_slow === 1,
      channels: r.channels === null ? null : (JSON.parse(r.channels) as number[]),
      remind_every_min: r.remind_every_min,
      paused: r.paused === 1,
      muted_until: r.muted_until,
      public: r.public === 1,
      public_name: r.public_name,
      public_group: r.public_group,
      sort: r.sort,
      ...kindConfig(r.kind, openSettings(r, open)),
    },
  };
}

/**
 * The row's kind settings with `open` applied to each secret value. Only sealed values change when
 * opened (clear text passes through SecretBox.open), so settings whose text holds no sealed value
 * skip the schema walk: most monitors have no secret, and a start with 10,000 of them spent 40 %
 * of its monitor loading there.
 */
function openSettings(r: MonitorRow, open: (value: string) => string): KindSettings[MonitorKind] {
  const settings = JSON.parse(r.settings) as KindSettings[MonitorKind];
  return r.settings.includes(SEALED_PREFIX) ? withSecrets(r.kind, settings, open) : settings;
}

function withSecrets(kind: MonitorKind, settings: KindSettings[MonitorKind], fn: (value: string) => string): KindSettings[MonitorKind] {
  return mapSecrets(settings, KIND_SECRETS[kind], fn);
}

const COLUMNS = [
  'slug', 'name', 'kind', 'group_name', 'tags', 'description', 'runbook_url', 'interval_s', 'timeout_ms', 'confirm_after',
  'retry_interval_s', 'recover_after', 'slow_ms', 'slow_after', 'alert_on_slow', 'channels', 'remind_every_min', 'paused',
  'muted_until', 'public', 'public_name', 'public_group', 'sort', 'settings',
] as const;

function configValues(c: MonitorConfig, seal: (value: string) => string): unknown[] {
  return [
    c.slug, c.name, c.kind, c.group, JSON.stringify(c.tags), c.description, c.runbook_url, c.interval_s, c.timeout_ms,
    c.confirm_after, c.retry_interval_s, c.recover_after, c.slow_ms, c.slow_after, c.alert_on_slow ? 1 : 0,
    c.channels === null ? null : JSON.stringify(c.channels), c.remind_every_min, c.paused ? 1 : 0, c.muted_until,
    c.public ? 1 : 0, c.public_name, c.public_group, c.sort, JSON.stringify(withSecrets(c.kind, c.settings, seal)),
  ];
}

/**
 * One sealed secret value stored in the database, or null when there is none; loadSecretBox uses
 * it to tell "first start" from "the key file went missing" and to check the key at start.
 */
export async function sealedSecretSample(read: (sql: string) => Promise<unknown>): Promise<string | null> {
  const rows = (await read(`SELECT settings FROM monitors WHERE settings LIKE '%"${SEALED_PREFIX}%' LIMIT 1`)) as { settings: string }[];
  if (!rows[0]) return null;
  const sealed = new RegExp(`"(${SEALED_PREFIX}[A-Za-z0-9+/=]*)"`).exec(rows[0].settings);
  return sealed ? sealed[1] : null;
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
    const rows = (await this.db.read(
      `SELECT id, settings FROM monitors WHERE kind = 'http' AND (json_extract(settings, '$.auth') IS NOT NULL OR settings LIKE '%"secret":true%')`,
    )) as { id: number; settings: string }[];
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
        for (const [settings, id] of changed) await m.query('UPDATE monitors SET settings = ? WHERE id = ?', [settings, id]);
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
    const rows = (await m.query('SELECT * FROM monitors WHERE id = ?', [id])) as MonitorRow[];
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  async findBySlug(slug: string, m: EntityManager = this.db.manager): Promise<StoredMonitor | null> {
    const rows = (await m.query('SELECT * FROM monitors WHERE slug = ?', [slug])) as MonitorRow[];
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  async findBySlugs(slugs: string[], m: EntityManager = this.db.manager): Promise<Map<string, StoredMonitor>> {
    const out = new Map<string, StoredMonitor>();
    for (let i = 0; i < slugs.length; i += 500) {
      const part = slugs.slice(i, i + 500);
      const rows = (await m.query(`SELECT * FROM monitors WHERE slug IN (${part.map(() => '?').join(',')})`, part)) as MonitorRow[];
      for (const r of rows) out.set(r.slug, this.toStored(r));
    }
    return out;
  }

  /** Slugs in use that start with `base` (for picking base-2, base-3, ...), other than monitor `exceptId`'s. */
  async slugsLike(base: string, m: EntityManager = this.db.manager, exceptId: number | null = null): Promise<Set<string>> {
    const rows = (await m.query("SELECT slug FROM monitors WHERE (slug = ? OR slug LIKE ? ESCAPE '\\') AND id IS NOT ?", [
      base,
      `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`,
      exceptId,
    ])) as { slug: string }[];
    return new Set(rows.map((r) => r.slug));
  }

  /**
   * Monitor rows with their state columns (`s_<column>`; splitState reads them), filtered, newest
   * first: one page (limit + 1 rows), or every match when the filter has `q`.
   */
  async list(filter: MonitorFilter, limit: number, beforeId: number | null): Promise<ListedRow[]> {
    return (await this.select(LISTED_COLUMNS, filter, filter.q === undefined ? limit : null, beforeId)) as ListedRow[];
  }

  /**
   * The page of list() as its heads only (id, updated_at, muted_until, stored status): a tenth of the cost of
   * whole rows, for a caller that keeps each monitor's answer and needs whole rows only for the
   * ones that changed (listedByIds). No `q` here: matching text needs the whole row.
   */
  async listHeads(filter: Omit<MonitorFilter, 'q'>, limit: number | null, beforeId: number | null): Promise<ListedHead[]> {
    const { sql, params } = this.selectSql(HEAD_SELECT, filter, limit, beforeId);
    return readSelectRows<ListedHead>(this.db, HEAD_COLUMNS, sql, 'id DESC', params);
  }

  /**
   * The `before` cursors of the unfiltered list's pages after the first (ids, newest first, as
   * select() pages them), up to `pages` pages in all: what a client following next_cursor asks.
   */
  async pageCursors(limit: number, pages: number): Promise<number[]> {
    const ids = ((await this.db.read('SELECT id FROM monitors ORDER BY id DESC LIMIT ?', [limit * (pages - 1) + 1])) as { id: number }[]).map((r) => r.id);
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
      out.push(...((await this.db.read(sql, part)) as ListedRow[]));
    }
    return out;
  }

  private async select(columns: string, filter: MonitorFilter, limit: number | null, beforeId: number | null): Promise<unknown[]> {
    const { sql, params } = this.selectSql(columns, filter, limit, beforeId);
    return (await this.db.read(sql, params)) as unknown[];
  }

  private selectSql(columns: string, filter: MonitorFilter, limit: number | null, beforeId: number | null): { sql: string; params: unknown[] } {
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

  async stateOf(id: number, m: EntityManager = this.db.manager): Promise<MonitorState | null> {
    const rows = (await m.query('SELECT * FROM monitor_state WHERE monitor_id = ?', [id])) as MonitorState[];
    return rows[0] ?? null;
  }

  async insert(m: EntityManager, c: MonitorConfig, now: number, tokenHash: string | null): Promise<number> {
    const cols = [...COLUMNS, 'heartbeat_token_hash', 'created_at', 'updated_at'];
    // TypeORM's sqlite runner answers an INSERT with the new rowid.
    return (await m.query(`INSERT INTO monitors (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, [
      ...configValues(c, this.seal),
      tokenHash,
      now,
      now,
    ])) as number;
  }

  async update(m: EntityManager, id: number, c: MonitorConfig, now: number): Promise<void> {
    await m.query(`UPDATE monitors SET ${COLUMNS.map((col) => `${col} = ?`).join(', ')}, updated_at = ? WHERE id = ?`, [
      ...configValues(c, this.seal),
      now,
      id,
    ]);
  }

  async setHeartbeatToken(m: EntityManager, id: number, hash: string | null): Promise<void> {
    await m.query('UPDATE monitors SET heartbeat_token_hash = ? WHERE id = ?', [hash, id]);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM monitors WHERE id = ?', [id]);
  }

  async insertState(m: EntityManager, s: MonitorState): Promise<void> {
    await m.query(
      `INSERT OR REPLACE INTO monitor_state (${STATE_COLUMNS.join(', ')}) VALUES (${STATE_COLUMNS.map(() => '?').join(', ')})`,
      STATE_COLUMNS.map((c) => s[c]),
    );
  }

  async setStatus(m: EntityManager, id: number, status: MonitorState['status'], since: number): Promise<void> {
    // A pause or a new target ends any open incident in the same transaction (engine.endIncidentIn).
    await m.query('UPDATE monitor_state SET status = ?, since = ?, failing = 0, incident_id = NULL WHERE monitor_id = ?', [status, since, id]);
  }

  async stateRows(): Promise<MonitorState[]> {
    return this.db.read(`SELECT ${STATE_COLUMNS.join(', ')} FROM monitor_state`);
  }

  async groupsAndTags(): Promise<{ groups: string[]; tags: string[] }> {
    const groups = (await this.db.read(
      'SELECT DISTINCT group_name AS g FROM monitors WHERE group_name IS NOT NULL ORDER BY g',
    )) as { g: string }[];
    const tags = (await this.db.read('SELECT DISTINCT t.value AS t FROM monitors m, json_each(m.tags) t ORDER BY t')) as {
      t: string;
    }[];
    return { groups: groups.map((r) => r.g), tags: tags.map((r) => r.t) };
  }
}

const STATE_COLUMNS = [
  'monitor_id', 'status', 'since', 'failing', 'flapping', 'last_check_at', 'last_ok_at', 'latency_ms', 'error_code',
  'error_message', 'incident_id', 'cert_expires_at', 'note',
] as const;

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

const LISTED_COLUMNS = `m.*, ${STATE_COLUMNS.map((c) => `s.${c} AS s_${c}`).join(', ')}`;
const listedFrom = (columns: string) => `SELECT ${columns} FROM monitors m JOIN monitor_state s ON s.monitor_id = m.id`;

export function splitState(row: ListedRow): MonitorState {
  return Object.fromEntries(STATE_COLUMNS.map((c) => [c, row[`s_${c}`]])) as unknown as MonitorState;
}
