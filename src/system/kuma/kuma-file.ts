/**
 * Opens what an owner hands the importer: an Uptime Kuma SQLite database (`kuma.db`, 1.23.x or
 * 2.x) or a 1.x JSON backup, and reads the rows the mapping needs (docs/import-kuma.md).
 *
 * The user's file is never written: a database is read through a private copy (snapshotKumaDb,
 * with its -wal when one lies beside it: Kuma still running, or stopped without a checkpoint). A
 * database another program holds a write lock on is refused at once with words saying so, never
 * waited for.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { ApiError } from '../../common/http/api-error';
import { KumaData } from './kuma-data';
import { readKumaBackup } from './kuma-backup';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** A JSON backup is configuration only: one past this is not one. */
export const KUMA_BACKUP_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The schema patches of Kuma 1.23 (server/database.js `patchList` at tag 1.23.9, commit
 * 621419e4341995bd4dc35111bc4342d534adf455): a database without all of them is older than 1.23.
 * Only the ones that added columns the importer reads are listed.
 */
const PATCHES_123 = [
  'patch-add-retry-interval-monitor.sql',
  'patch-monitor-push_token.sql',
  'patch-http-monitor-method-body-and-headers.sql',
  'patch-monitor-basic-auth.sql',
  'patch-add-docker-columns.sql',
  'patch-status-page.sql',
  'patch-added-mqtt-monitor.sql',
  'patch-grpc-monitor.sql',
  'patch-monitor-add-resend-interval.sql',
  'patch-maintenance-table2.sql',
  'patch-add-description-monitor.sql',
  'patch-maintenance-cron.sql',
  'patch-add-parent-monitor.sql',
  'patch-add-invert-keyword.sql',
  'patch-added-json-query.sql',
  'patch-add-timeout-monitor.sql',
];

/** Columns of `monitor` every mapped kind reads; a database without one is of a version this importer does not know. */
const MONITOR_COLUMNS = [
  'id', 'name', 'active', 'interval', 'url', 'type', 'hostname', 'port', 'keyword', 'maxretries', 'ignore_tls',
  'upside_down', 'accepted_statuscodes_json', 'retry_interval', 'resend_interval', 'push_token', 'method', 'body',
  'headers', 'basic_auth_user', 'basic_auth_pass', 'parent', 'timeout', 'json_path', 'expected_value',
]; // prettier-ignore

const unreadable = (message: string) => ApiError.invalid([{ field: 'file', message }]);

/** Reads `file` (a Kuma database or JSON backup) into KumaData; a file it cannot use is a 422 on `file` saying why. */
export async function readKumaFile(file: string): Promise<KumaData> {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      head = Buffer.alloc(16);
      head = head.subarray(0, fs.readSync(fd, head, 0, 16, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw unreadable(`cannot read ${path.basename(file)}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (head.equals(SQLITE_MAGIC)) return readDatabase(file);
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('{')) {
    const size = fs.statSync(file).size;
    if (size > KUMA_BACKUP_MAX_BYTES)
      throw unreadable(`a Kuma JSON backup is at most ${KUMA_BACKUP_MAX_BYTES / 1024 / 1024} MB; this file is larger`);
    return readKumaBackup(fs.readFileSync(file, 'utf8'));
  }
  throw unreadable(
    'not an Uptime Kuma database or backup: give kuma.db (from Kuma\'s data folder) or a JSON backup from Kuma 1.x "Settings → Backup"',
  );
}

async function readDatabase(file: string): Promise<KumaData> {
  const snap = await snapshotKumaDb(file);
  try {
    const conn = await open(snap.file, sqlite3.OPEN_READWRITE);
    try {
      return await readTables(conn);
    } finally {
      await new Promise<void>((resolve) => conn.close(() => resolve()));
    }
  } finally {
    snap.remove();
  }
}

export interface Snapshot {
  file: string;
  remove(): void;
}

/**
 * A private copy of a Kuma database (with its -wal: the newest rows may be only there), for
 * reading and for the CLI's upload. SQLite itself never opens the user's file in WAL mode: even a
 * read-only open writes its -shm (and creates an empty -wal). A database in rollback-journal mode
 * is opened read-only first (which writes nothing) to refuse it at once while another program
 * holds a write lock, rather than copying a half-written file.
 */
export async function snapshotKumaDb(file: string): Promise<Snapshot> {
  const header = Buffer.alloc(20);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  // Bytes 18-19 of the header: 1 = rollback journal, 2 = WAL (sqlite.org/fileformat2.html).
  if (header[18] === 1) await assertNotLocked(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-kuma-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const copy = path.join(dir, 'kuma.db');
    fs.copyFileSync(file, copy);
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
    return { file: copy, remove };
  } catch (err) {
    remove();
    throw unreadable(`cannot copy the database: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

const LOCKED = 'the database is locked by another program (Uptime Kuma still running?): stop Kuma and import again';

async function assertNotLocked(file: string): Promise<void> {
  if (fs.existsSync(`${file}-journal`))
    throw unreadable(`${LOCKED} (a -journal file beside it: a write is under way or was cut off)`);
  const conn = await open(file, sqlite3.OPEN_READONLY);
  try {
    conn.configure('busyTimeout', 0);
    await all(conn, 'SELECT count(*) FROM sqlite_master');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw unreadable(/SQLITE_BUSY|locked/i.test(message) ? LOCKED : `the database cannot be read: ${message}`);
  } finally {
    await new Promise<void>((resolve) => conn.close(() => resolve()));
  }
}

function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, mode, (err) =>
      err ? reject(unreadable(`cannot open the database: ${err.message}`)) : resolve(conn),
    );
  });
}

function all<T = Record<string, unknown>>(conn: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) =>
    conn.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
  );
}

async function readTables(conn: sqlite3.Database): Promise<KumaData> {
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => {
    try {
      return await all<T>(conn, sql, params);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/SQLITE_BUSY|locked/i.test(message)) throw unreadable(LOCKED);
      if (/SQLITE_NOTADB|SQLITE_CORRUPT|malformed/i.test(message))
        throw unreadable(`the database is damaged: ${message}`);
      throw err;
    }
  };
  // One read transaction: every table from the same moment.
  await q('BEGIN');
  try {
    const tables = new Set(
      (await q<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name),
    );
    if (!tables.has('monitor') || !tables.has('notification'))
      throw unreadable('a SQLite database, but not one of Uptime Kuma: it has no monitor and notification tables');
    const setting = async (key: string) =>
      tables.has('setting')
        ? ((await q<{ value: string | null }>('SELECT value FROM setting WHERE key = ?', [key]))[0]?.value ?? null)
        : null;
    const version = await detectVersion(tables, q, setting);
    const columns = new Set((await q<{ name: string }>('PRAGMA table_info(monitor)')).map((r) => r.name));
    const missing = MONITOR_COLUMNS.filter((c) => !columns.has(c));
    if (missing.length)
      throw unreadable(
        `an Uptime Kuma database of an unknown version (${version}): its monitor table has no ${missing.join(', ')}`,
      );
    const has = (t: string) => tables.has(t);
    const pages = has('status_page') ? await q('SELECT * FROM status_page ORDER BY id LIMIT 1') : [];
    const page = pages[0] ?? null;
    return {
      version,
      monitors: await q('SELECT * FROM monitor ORDER BY id'),
      notifications: await q('SELECT * FROM notification ORDER BY id'),
      monitorNotifications: has('monitor_notification')
        ? await q('SELECT monitor_id, notification_id FROM monitor_notification ORDER BY id')
        : [],
      tags: has('tag') ? await q('SELECT id, name FROM tag ORDER BY id') : [],
      monitorTags: has('monitor_tag') ? await q('SELECT monitor_id, tag_id, value FROM monitor_tag ORDER BY id') : [],
      maintenances: has('maintenance') ? await q('SELECT * FROM maintenance ORDER BY id') : [],
      monitorMaintenances: has('monitor_maintenance')
        ? await q('SELECT monitor_id, maintenance_id FROM monitor_maintenance ORDER BY id')
        : [],
      statusPage: page,
      pageGroups:
        page && has('group')
          ? await q('SELECT id, name, weight FROM "group" WHERE status_page_id = ? ORDER BY weight, id', [page.id])
          : [],
      pageMonitors:
        page && has('monitor_group')
          ? await q(
              'SELECT mg.group_id, mg.monitor_id, mg.weight FROM monitor_group mg JOIN "group" g ON g.id = mg.group_id WHERE g.status_page_id = ? ORDER BY mg.weight, mg.id',
              [page.id],
            )
          : [],
      dockerHosts: has('docker_host') ? await q('SELECT id, docker_daemon, docker_type FROM docker_host') : [],
      serverTimezone: await setting('serverTimezone'),
    };
  } finally {
    await q('COMMIT').catch(() => undefined);
  }
}

/**
 * 2.x keeps its migrations in `knex_migrations`; 1.x lists the patch files applied in the setting
 * `databasePatchedFiles` (server/database.js of each). A 1.x database without 1.23's patches is refused.
 */
async function detectVersion(
  tables: Set<string>,
  q: (sql: string) => Promise<Record<string, unknown>[]>,
  setting: (key: string) => Promise<string | null>,
): Promise<string> {
  if (tables.has('knex_migrations')) {
    const rows = await q('SELECT name FROM knex_migrations ORDER BY name DESC LIMIT 1');
    const last = typeof rows[0]?.name === 'string' ? rows[0].name : 'none';
    return `Uptime Kuma 2.x database (last migration ${last})`;
  }
  let patched: Record<string, unknown> = {};
  try {
    const raw = await setting('databasePatchedFiles');
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') patched = parsed as Record<string, unknown>;
  } catch {
    // Unreadable: every patch counts as missing, and the error below names them.
  }
  const missing = PATCHES_123.filter((p) => !patched[p]);
  if (missing.length) {
    const schema = (await setting('database_version')) ?? 'unknown';
    throw unreadable(
      `an Uptime Kuma database of an unknown version (1.x schema version ${schema}, older than 1.23: ${missing.length} of 1.23's schema patches are missing, the first ${missing[0]}): start it once with Uptime Kuma 1.23 (which upgrades it), stop Kuma and import again`,
    );
  }
  return 'Uptime Kuma 1.23 database';
}
