import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { databasePath, openDatabase } from './data-source';
import { Database, storageFailureCode, StorageUnavailable } from './database';

const sqliteError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

describe('storageFailureCode', () => {
  it.each<[string, unknown, string | null]>([
    ['a full disk', sqliteError('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL'],
    ['an I/O error', sqliteError('SQLITE_IOERR', 'disk I/O error'), 'SQLITE_IOERR'],
    [
      'an extended I/O error code in the text only',
      new Error('SQLITE_IOERR_WRITE: disk I/O error'),
      'SQLITE_IOERR_WRITE',
    ],
    ['a read-only file', sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'), 'SQLITE_READONLY'],
    ['a file that cannot be opened', sqliteError('SQLITE_CANTOPEN', 'unable to open database file'), 'SQLITE_CANTOPEN'],
    ['a constraint (a bug or a race, not storage)', sqliteError('SQLITE_CONSTRAINT', 'UNIQUE constraint failed'), null],
    ['a busy database (retried by the busy timeout)', sqliteError('SQLITE_BUSY', 'database is locked'), null],
    ['a plain error', new Error('boom'), null],
    ['not an error at all', 'SQLITE_FULL', null],
    ['null', null, null],
  ])('classifies %s', (_what, err, code) => {
    expect(storageFailureCode(err)).toBe(code);
  });
});

describe('StorageUnavailable', () => {
  it.each([
    ['SQLITE_FULL', 'the disk is full'],
    ['SQLITE_IOERR_WRITE', 'a disk input/output error'],
    ['SQLITE_READONLY', 'the database file is read-only'],
  ])('says what is wrong with %s and that nothing changed', (code, words) => {
    const e = new StorageUnavailable(code);
    expect(e.message).toContain(words);
    expect(e.message).toContain('nothing was changed');
  });
});

/** Each test gets a database of its own in a temp dir, with a table t. */
describe('Database on a file', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-db-'));
    db = new Database(await openDatabase(dir));
    await db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  });

  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('reads see committed rows only', () => {
    const count = async (d: Database, how: 'read' | 'query') => {
      const [{ n }] = await d[how]<{ n: number }[]>('SELECT COUNT(*) AS n FROM t');
      return n;
    };

    it('does not see an open transaction, sees it once committed, never sees one rolled back', async () => {
      const seen: Record<string, number> = {};
      await db.tx(async (m) => {
        await m.query("INSERT INTO t (v) VALUES ('a')");
        seen.readInside = await count(db, 'read');
        // The writing connection is the transaction's own: it sees the row already.
        seen.queryInside = await count(db, 'query');
      });
      seen.readAfter = await count(db, 'read');
      await expect(
        db.tx(async (m) => {
          await m.query("INSERT INTO t (v) VALUES ('b')");
          seen.readBeforeRollback = await count(db, 'read');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      seen.readAfterRollback = await count(db, 'read');
      expect(seen).toEqual({
        readInside: 0,
        queryInside: 1,
        readAfter: 1,
        readBeforeRollback: 1,
        readAfterRollback: 1,
      });
    });

    it('refuses to write through the reading connection', async () => {
      await expect(db.read("INSERT INTO t (v) VALUES ('x')")).rejects.toThrow(/readonly|read-only|query_only/i);
      expect(await count(db, 'query')).toBe(0);
    });

    it('runs afterCommit callbacks after the commit, in order, and drops them on a rollback', async () => {
      const calls: string[] = [];
      await db.tx(async (m) => {
        db.afterCommit(() => calls.push('first'));
        await m.query("INSERT INTO t (v) VALUES ('a')");
        db.afterCommit(() => calls.push('second'));
        calls.push('body done');
      });
      await db
        .tx(async () => {
          db.afterCommit(() => calls.push('never'));
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await db.tx(async () => undefined);
      expect(calls).toEqual(['body done', 'first', 'second']);
    });

    it('answers reads while a long transaction holds the writing connection', async () => {
      await db.query("INSERT INTO t (v) VALUES ('committed')");
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const tx = db.tx(async (m) => {
        await m.query("UPDATE t SET v = 'changing'");
        await held;
      });
      const rows = await db.read<{ v: string }[]>('SELECT v FROM t');
      release();
      await tx;
      expect(rows).toEqual([{ v: 'committed' }]);
      expect(await db.read('SELECT v FROM t')).toEqual([{ v: 'changing' }]);
    });
  });

  describe('kept statements of the reader', () => {
    const count = async () => (await db.read<{ n: number }[]>('SELECT count(*) AS n FROM t WHERE id > ?', [0]))[0].n;

    it('sees each commit in the next read of the same statement (a kept statement holds no snapshot)', async () => {
      expect(await count()).toBe(0);
      await db.query('INSERT INTO t (v) VALUES (?)', ['a']);
      expect(await count()).toBe(1);
      // A read left open would keep the WAL from being emptied: TRUNCATE answers busy = 1 then.
      const [cp] = await db.query<{ busy: number }[]>('PRAGMA wal_checkpoint(TRUNCATE)');
      expect(cp.busy).toBe(0);
      await db.query('INSERT INTO t (v) VALUES (?)', ['b']);
      expect(await count()).toBe(2);
    });

    it('runs reads of one statement asked for together, each with its own parameters', async () => {
      for (let i = 1; i <= 20; i++) await db.query('INSERT INTO t (id, v) VALUES (?, ?)', [i, `v${i}`]);
      const sql = 'SELECT v FROM t WHERE id = ?';
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => db.read<{ v: string }[]>(sql, [i + 1])));
      expect(answers.map((rows) => rows[0].v)).toEqual(Array.from({ length: 20 }, (_, i) => `v${i + 1}`));
    });

    it('answers a statement that does not prepare with its error, every time, and reads on after it', async () => {
      await expect(db.read('SELECT nope FROM t')).rejects.toThrow(/no such column/);
      await expect(db.read('SELECT nope FROM t')).rejects.toThrow(/no such column/);
      await db.query('ALTER TABLE t ADD COLUMN nope TEXT');
      expect(await db.read('SELECT nope FROM t')).toEqual([]);
    });

    it('keeps working past the number of statements it keeps, and closes with statements kept', async () => {
      await db.query('INSERT INTO t (id, v) VALUES (1, ?)', ['x']);
      for (let i = 0; i < 450; i++) {
        const rows = await db.read<{ k: number }[]>(`SELECT id + ${i} AS k FROM t`);
        expect(rows).toEqual([{ k: 1 + i }]);
      }
      // afterEach closes; a close that failed on unfinalized statements would leave the file busy.
    });
  });

  describe('sharing the file with another process', () => {
    /** A plain connection with no busy timeout (it answers SQLITE_BUSY at once), as another process would open it. */
    const connect = (): Promise<sqlite3.Database> =>
      new Promise((resolve, reject) => {
        const c = new sqlite3.Database(databasePath(dir), sqlite3.OPEN_READWRITE, (err) =>
          err ? reject(err) : resolve(c),
        );
      });
    const exec = (c: sqlite3.Database, sql: string) =>
      new Promise<void>((resolve, reject) => c.exec(sql, (err) => (err ? reject(err) : resolve())));
    const close = (c: sqlite3.Database) => new Promise<void>((resolve) => c.close(() => resolve()));

    /** Whether another connection could take the write lock right now. */
    const writeLockFree = async (): Promise<boolean> => {
      const c = await connect();
      try {
        await exec(c, 'BEGIN IMMEDIATE');
        await exec(c, 'ROLLBACK');
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
        throw err;
      } finally {
        await close(c);
      }
    };

    it('takes the write lock when a transaction begins, so a write from elsewhere waits instead of failing it', async () => {
      const other = new Database(await openDatabase(dir));
      try {
        let otherWrite: Promise<void> | undefined;
        let freeAfterRead: boolean | undefined;
        await db.tx(async (m) => {
          // A read first: after a deferred BEGIN this holds only a snapshot, another connection could
          // commit now, and the write below would then fail at once with SQLITE_BUSY.
          await m.query('SELECT COUNT(*) FROM t');
          freeAfterRead = await writeLockFree();
          otherWrite = other.tx(async (o) => {
            await o.query("INSERT INTO t (v) VALUES ('other')");
          });
          await m.query("INSERT INTO t (v) VALUES ('mine')");
        });
        await otherWrite;
        expect(freeAfterRead).toBe(false);
        expect(await db.read('SELECT v FROM t ORDER BY id')).toEqual([{ v: 'mine' }, { v: 'other' }]);
        expect(await writeLockFree()).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('waits for a lock held elsewhere from its very first statement when it opens', async () => {
      // EXCLUSIVE locking mode keeps a lock on the file itself that no new connection can read past
      // (it can only be taken while no other connection has the file open). Held 1.5 s: longer than
      // the 1 s node-sqlite3 waits before its busy timeout is set, shorter than the busy timeout.
      await db.close();
      const holder = await connect();
      await exec(holder, 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT');
      let released = false;
      const release = setTimeout(() => void close(holder).then(() => (released = true)), 1500);
      try {
        const second = new Database(await openDatabase(dir));
        expect(released).toBe(true);
        expect(await second.read('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 0 }]);
        await second.close();
      } finally {
        clearTimeout(release);
        if (!released) await close(holder);
      }
    });
  });
});
