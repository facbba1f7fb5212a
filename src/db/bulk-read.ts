/**
 * Many rows read as one JSON text that SQLite builds, instead of row by row.
 *
 * The sqlite3 module turns each result row into a JS object on the main thread, about 25 µs per
 * row of 28 columns: 220-310 ms for 10,000 monitors at start, while nothing else can run. Asked
 * for `json_group_array(json_object(...))`, SQLite builds the text in the module's worker thread
 * and the main thread only parses it (10,000 monitors: 25-50 ms of JSON.parse). The rows come out
 * as a plain SELECT gives them: the same keys, integers and text unchanged, NULL as null. Only for
 * columns without REAL or BLOB values: json_object rejects a BLOB and prints a REAL with 15
 * significant digits. Row order follows the scan (rowid or primary key order, no ORDER BY).
 */
import type { Database } from './database';

/** Each database's tables' column names, read once from the schema (migrations never run after start). */
const columnsByDb = new WeakMap<Database, Map<string, Promise<string[]>>>();

function tableColumns(db: Database, table: string): Promise<string[]> {
  const columnsOf = columnsByDb.get(db) ?? new Map<string, Promise<string[]>>();
  columnsByDb.set(db, columnsOf);
  let cols = columnsOf.get(table);
  if (!cols) {
    cols = db.read<{ name: string }[]>('SELECT name FROM pragma_table_info(?)', [table]).then((rows) => {
      if (rows.length === 0) throw new Error(`bulk read: no table "${table}"`);
      return rows.map((r) => r.name);
    });
    cols.catch(() => columnsOf.delete(table));
    columnsOf.set(table, cols);
  }
  return cols;
}

/**
 * `SELECT columns <rest>` as row objects; `rest` starts at FROM (with WHERE and params as needed).
 * Column names and `rest` come from our own code, never from input.
 */
export async function readRows<T>(db: Database, columns: readonly string[], rest: string, params: unknown[] = []): Promise<T[]> {
  const pairs = columns.map((c) => `'${c}', "${c}"`).join(', ');
  const [row] = await db.read<{ rows: string }[]>(`SELECT json_group_array(json_object(${pairs})) AS rows ${rest}`, params);
  return JSON.parse(row.rows) as T[];
}

/** Every row of `table`, as `SELECT * FROM table` gives them. */
export async function readTable<T>(db: Database, table: string): Promise<T[]> {
  return readRows<T>(db, await tableColumns(db, table), `FROM "${table}"`);
}
