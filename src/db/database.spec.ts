import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from './data-source';
import { Database, storageFailureCode, StorageUnavailable } from './database';

const sqliteError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

describe('storageFailureCode', () => {
  it.each<[string, unknown, string | null]>([
    ['a full disk', sqliteError('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL'],
    ['an I/O error', sqliteError('SQLITE_IOERR', 'disk I/O error'), 'SQLITE_IOERR'],
    ['an extended I/O error code in the text only', new Error('SQLITE_IOERR_WRITE: disk I/O error'), 'SQLITE_IOERR_WRITE'],
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

describe('Database: reads see committed rows only', () => {
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
    expect(seen).toEqual({ readInside: 0, queryInside: 1, readAfter: 1, readBeforeRollback: 1, readAfterRollback: 1 });
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
    await db.tx(async () => {
      db.afterCommit(() => calls.push('never'));
      throw new Error('rolled back');
    }).catch(() => undefined);
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
