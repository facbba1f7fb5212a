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

/** Each database's tables and their column names, read once (migrations never run after start). */
const schemas = new WeakMap<Database, Promise<Map<string, string[]>>>();

/**
 * Reads every table's column names in one statement, once per database. Asked for as soon as the
 * database is open (main.ts), its answer is there before the start's big reads: they go to SQLite
 * at once instead of each waiting for a round trip of its own through a busy main thread.
 */
export function readColumns(db: Database): Promise<Map<string, string[]>> {
  let schema = schemas.get(db);
  if (!schema) {
    schema = db
      .read<{ tbl: string; col: string }[]>(
        `SELECT m.name AS tbl, p.name AS col FROM sqlite_schema m JOIN pragma_table_info(m.name) p
         WHERE m.type = 'table' ORDER BY m.name, p.cid`,
      )
      .then((rows) => {
        const out = new Map<string, string[]>();
        for (const r of rows) {
          const cols = out.get(r.tbl);
          if (cols) cols.push(r.col);
          else out.set(r.tbl, [r.col]);
        }
        return out;
      });
    schema.catch(() => schemas.delete(db));
    schemas.set(db, schema);
  }
  return schema;
}

async function tableColumns(db: Database, table: string): Promise<string[]> {
  let cols = (await readColumns(db)).get(table);
  if (!cols) {
    // Not there when the schema was read: look once more before refusing.
    schemas.delete(db);
    cols = (await readColumns(db)).get(table);
  }
  if (!cols) throw new Error(`bulk read: no table "${table}"`);
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
