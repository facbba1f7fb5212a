/**
 * `farsight restore FILE [--force]`: puts a backup made by `farsight backup` in place of the
 * database (docs/backup.md). Steps:
 *  1. Take the data dir's lock, the one `serve` holds for its life: while the service runs,
 *     restore refuses, and no service can start while restore works.
 *  2. Refuse to replace a database unless --force is given.
 *  3. Copy FILE into the data dir, then check the copy (never the original, which may change
 *     meanwhile): a SQLite header, `PRAGMA integrity_check`, Farsight's tables, migrations this
 *     version knows (a backup of a newer version is refused), and, when it holds sealed secrets,
 *     that the secret key of this data dir opens them (backups never contain the key).
 *  4. Replace: the old database is kept beside it as `farsight.db.before-restore-<time>` (with its
 *     -wal), then the checked copy is renamed over `farsight.db`: a rename is atomic, so a crash
 *     leaves either the old database or the new one, never half of one.
 * Messages are one line each; exit 0 on success, 2 for a usage problem (or a database that is
 * there without --force), 1 when the backup or the data dir cannot be used.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { sealedSecretSample } from './catalog/monitors.repository';
import type { AppConfig } from './config/config';
import { StartupError } from './config/startup-failures';
import { DataDirLock } from './db/data-dir-lock';
import { PRIVATE_FILE_MODE, prepareDataDir } from './db/data-dir';
import { databasePath } from './db/data-source';
import { databaseHeaderProblem, HEADER_BYTES } from './db/database-header';
import { MIGRATIONS } from './db/migrations';
import { SEALED_PREFIX } from './db/secret-box';
import { loadSecretBox } from './db/secret-key';
import { aliveMarkOf, recordRestore } from './restore-record';

export const RESTORE_USAGE = 'usage: farsight restore FILE [--force]';
/** Tables every Farsight database has (the first migration creates most of them). */
const FARSIGHT_TABLES = ['migrations', 'owner', 'settings', 'events', 'monitors', 'monitor_state'];

export interface RestoreIo {
  out(line: string): void;
  err(line: string): void;
  /** For the name of the file the replaced database is kept as. */
  now(): number;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

const stdio: RestoreIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`farsight: ${line}\n`),
  now: () => Date.now(),
};

/** Runs the command; answers the exit code. */
export async function restoreCommand(config: AppConfig, args: string[], io: RestoreIo = stdio): Promise<number> {
  const force = args.includes('--force');
  const files = args.filter((a) => a !== '--force');
  if (files.length !== 1 || files[0].startsWith('-')) {
    io.err(RESTORE_USAGE);
    return 2;
  }
  try {
    io.out(await restore(config, path.resolve(files[0]), force, io.now()));
    return 0;
  } catch (err) {
    if (err instanceof Refusal) {
      io.err(err.message);
      return err.code;
    }
    if (err instanceof StartupError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}

async function restore(config: AppConfig, source: string, force: boolean, now: number): Promise<string> {
  const st = statOf(source);
  if (!st) throw new Refusal(`${source} does not exist`, 2);
  if (!st.isFile()) throw new Refusal(`${source} is not a file`, 2);
  if ((statOf(`${source}-wal`)?.size ?? 0) > 0) {
    throw new Refusal(
      `${source}-wal lies beside it: ${source} is a live database or was not closed cleanly; restore a copy made with \`farsight backup FILE\``,
      1,
    );
  }
  prepareDataDir(config.dataDir);
  let lock: DataDirLock;
  try {
    lock = await DataDirLock.acquire(config.dataDir);
  } catch (err) {
    if (err instanceof StartupError) {
      throw new Refusal(
        `restore needs the service stopped: ${err.message}; stop the service first (\`systemctl stop farsight\`, or Ctrl-C where it runs), then run restore again`,
        1,
      );
    }
    throw err;
  }
  const target = databasePath(config.dataDir);
  const copy = `${target}.restore-${process.pid}.tmp`;
  try {
    const existing = (statOf(target)?.size ?? 0) > 0 || (statOf(`${target}-wal`)?.size ?? 0) > 0;
    if (existing && !force) {
      throw new Refusal(
        `${target} already holds a database; add --force to replace it (the database it replaces is kept beside it)`,
        2,
      );
    }
    copyPrivate(source, copy);
    const facts = await check(copy, source);
    if (facts.sealed !== null) {
      const { sample, what } = facts.sealed;
      try {
        await loadSecretBox(config, async () => sample, what);
      } catch (err) {
        if (err instanceof StartupError)
          throw new Refusal(`${source} holds secrets this data dir's key cannot open: ${err.message}`, 1);
        throw err;
      }
    }
    // Before the replaced database is set aside: its own mark says when and how the service stopped.
    await recordRestore(copy, existing ? await aliveMarkOf(target) : null, now);
    const kept = existing ? await setAside(target, now) : null;
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(copy, target);
    syncDir(config.dataDir);
    const what = `${facts.monitors} monitor${facts.monitors === 1 ? '' : 's'}, ${fs.statSync(target).size} bytes`;
    return `restored ${source} into ${target} (${what})${kept ? `; the database it replaced is kept as ${kept}` : ''}; start the service to use it`;
  } finally {
    fs.rmSync(copy, { force: true });
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${copy}${suffix}`, { force: true });
    await lock.release();
  }
}

/** Copies with mode 0600 whatever the umask (a backup holds everything the database does), and syncs it to disk. */
function copyPrivate(from: string, to: string): void {
  fs.rmSync(to, { force: true });
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(to, PRIVATE_FILE_MODE);
  const fd = fs.openSync(to, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

interface Facts {
  monitors: number;
  /** One sealed value of the backup, and whose it is (messages name it). */
  sealed: { sample: string; what: 'monitor secrets' | 'channel secrets' } | null;
}

/** Is `file` a sound Farsight database this version can run? `name` is what messages call it. */
async function check(file: string, name: string): Promise<Facts> {
  const refuse = (why: string): never => {
    throw new Refusal(`${name} is not a usable Farsight backup: ${why}; nothing was changed`, 1);
  };
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = fs.openSync(file, 'r');
  let size: number;
  try {
    size = fs.fstatSync(fd).size;
    fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (size === 0) refuse('the file is empty');
  const problem = databaseHeaderProblem(header, size, 0);
  if (problem) refuse(problem);

  const conn = await open(file).catch((err: Error) => refuse(err.message));
  try {
    const integrity = await all<{ integrity_check: string }>(conn, 'PRAGMA integrity_check').catch((err: Error) =>
      refuse(`the integrity check failed: ${err.message}`),
    );
    const findings = integrity.map((r) => r.integrity_check);
    if (findings.length !== 1 || findings[0] !== 'ok')
      refuse(`the integrity check found damage (${findings.slice(0, 3).join('; ')})`);
    const tables = new Set(
      (await all<{ name: string }>(conn, "SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name),
    );
    const missing = FARSIGHT_TABLES.filter((t) => !tables.has(t));
    if (missing.length) refuse(`it is a SQLite database, but not Farsight's (no ${missing.join(', ')} table)`);
    const known = new Set(MIGRATIONS.map((M) => new M().name as string));
    const applied = (await all<{ name: string }>(conn, 'SELECT name FROM migrations')).map((r) => r.name);
    const unknown = applied.filter((n) => !known.has(n));
    if (unknown.length)
      refuse(
        `it was made by a newer Farsight (it has migration ${unknown[0]}, which this version does not know); upgrade first`,
      );
    const [{ n }] = await all<{ n: number }>(conn, 'SELECT COUNT(*) AS n FROM monitors');
    const query = (sql: string, params: unknown[] = []) => all(conn, sql, params);
    const monitorSample = await sealedSecretSample((sql) => query(sql));
    const channelSample = monitorSample === null && tables.has('channels') ? await channelSealedSample(conn) : null;
    const sealed =
      monitorSample !== null
        ? { sample: monitorSample, what: 'monitor secrets' as const }
        : channelSample !== null
          ? { sample: channelSample, what: 'channel secrets' as const }
          : null;
    return { monitors: n, sealed };
  } finally {
    await new Promise((resolve) => conn.close(resolve));
  }
}

/** A sealed secret of a channel config, for a backup whose monitors hold none (the same key seals both). */
async function channelSealedSample(conn: sqlite3.Database): Promise<string | null> {
  const [row] = await all<{ config: string }>(
    conn,
    `SELECT config FROM channels WHERE config LIKE '%"${SEALED_PREFIX}%' LIMIT 1`,
  );
  return row ? (new RegExp(`"(${SEALED_PREFIX}[A-Za-z0-9+/=]*)"`).exec(row.config)?.[1] ?? null) : null;
}

/**
 * Keeps the current database as `<db>.before-restore-<time>`. Its -wal holds its latest commits:
 * they are folded into it first (a checkpoint), so the kept file stands alone and can itself be
 * restored; a database too damaged for that keeps its -wal beside it instead.
 */
async function setAside(target: string, now: number): Promise<string> {
  await foldWal(target).catch(() => undefined);
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let kept = `${target}.before-restore-${stamp}`;
  for (let n = 2; statOf(kept); n++) kept = `${target}.before-restore-${stamp}-${n}`;
  // A hard link: farsight.db stays in place until the rename replaces it in one step.
  fs.linkSync(target, kept);
  if (statOf(`${target}-wal`)) fs.renameSync(`${target}-wal`, `${kept}-wal`);
  return kept;
}

async function foldWal(file: string): Promise<void> {
  if ((statOf(`${file}-wal`)?.size ?? 0) === 0) return;
  const conn = await open(file);
  try {
    await all(conn, 'PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await new Promise((resolve) => conn.close(resolve));
  }
}

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(conn)));
  });
}

function all<T>(conn: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) =>
    conn.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
  );
}

function statOf(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every file system lets a directory be synced; the rename itself is still atomic.
  }
}
