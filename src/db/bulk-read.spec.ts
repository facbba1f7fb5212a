import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRows, readSelectRows, readTable } from './bulk-read';
import { openDatabase } from './data-source';
import { Database } from './database';

describe('bulk reads (one JSON text per read)', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-bulk-'));
    db = new Database(await openDatabase(dir));
    await db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, "name" TEXT, n INTEGER, note TEXT, j TEXT)');
  });

  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows: unknown[][] = [
    [1, 'plain', 0, null, '{"a":1}'],
    [2, 'quotes " and \\ and \n newline', -5, '', '[1,"x"]'],
    [3, 'ünïcödé ✓ 🚀', 2 ** 53 - 1, 'null', 'not json'],
    [4, "<script>alert('x')</script>", null, '\u0000zero', null],
  ];

  async function fill(): Promise<void> {
    for (const r of rows) await db.query('INSERT INTO t (id, "name", n, note, j) VALUES (?, ?, ?, ?, ?)', r);
  }

  it('gives what SELECT * gives, value for value (text stays text, even JSON text)', async () => {
    await fill();
    const plain = await db.query<Record<string, unknown>[]>('SELECT * FROM t');
    const bulk = await readTable<Record<string, unknown>>(db, 't');
    expect(bulk).toEqual(plain);
    expect(bulk.map((r) => Object.keys(r))).toEqual(plain.map((r) => Object.keys(r)));
    expect(bulk[0].j).toBe('{"a":1}');
  });

  it('reads chosen columns with a WHERE and parameters', async () => {
    await fill();
    expect(await readRows(db, ['id', 'n'], 'FROM t WHERE id > ? AND id < ?', [1, 4])).toEqual([
      { id: 2, n: -5 },
      { id: 3, n: 2 ** 53 - 1 },
    ]);
  });

  it.each([
    ['id DESC', 'ORDER BY id DESC LIMIT 3'],
    ['id ASC', 'ORDER BY id ASC'],
    ['n DESC', 'WHERE n IS NOT NULL'],
  ])(
    'reads a SELECT of its own as SQLite orders it (%s), each row an object as SELECT gives it',
    async (order, tail) => {
      await fill();
      const inner = `SELECT id, "name", n, note FROM t ${tail}`;
      const plain = await db.query<Record<string, unknown>[]>(`SELECT * FROM (${inner}) ORDER BY ${order}`);
      expect(plain.length).toBeGreaterThan(1);
      expect(await readSelectRows(db, ['id', 'name', 'n', 'note'], inner, order)).toEqual(plain);
    },
  );

  it('reads no rows of its own SELECT as an empty list', async () => {
    expect(await readSelectRows(db, ['id'], 'SELECT id FROM t WHERE id > ?', 'id', [0])).toEqual([]);
  });

  it('keeps column names that SQL or JavaScript would read otherwise', async () => {
    await db.query('CREATE TABLE odd ("order" INTEGER, "with space" TEXT, "constructor" TEXT, "1" INTEGER)');
    await db.query('INSERT INTO odd VALUES (1, ?, ?, 2)', ['a', 'b']);
    const plain = await db.query<Record<string, unknown>[]>('SELECT * FROM odd');
    expect(await readTable(db, 'odd')).toEqual(plain);
    expect(plain).toEqual([{ order: 1, 'with space': 'a', constructor: 'b', 1: 2 }]);
  });

  it('refuses a column named __proto__ (it would set the prototype)', async () => {
    await db.query('CREATE TABLE proto ("__proto__" TEXT)');
    await expect(readTable(db, 'proto')).rejects.toThrow('a column named __proto__');
  });

  it('reads an empty table as no rows', async () => {
    expect(await readTable(db, 't')).toEqual([]);
  });

  it('refuses a table that does not exist, and asks again next time', async () => {
    await expect(readTable(db, 'nope')).rejects.toThrow('bulk read: no table "nope"');
    await db.query('CREATE TABLE nope (x INTEGER)');
    await db.query('INSERT INTO nope (x) VALUES (7)');
    expect(await readTable(db, 'nope')).toEqual([{ x: 7 }]);
  });
});
