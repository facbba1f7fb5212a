/**
 * Many rows read as one JSON text that SQLite builds, instead of row by row.
 *
 * The sqlite3 module turns each result row into a JS object on the main thread, about 25 µs per
 * row of 28 columns: 220-310 ms for 10,000 monitors at start, while nothing else can run. Asked
 * for `json_group_array(json_array(...))`, SQLite builds the text in the module's worker thread
 * and the main thread only takes the text in, parses it and names the values: 10,000 monitors
 * 70-90 ms, against 125-130 ms for `json_object` rows, whose repeated column names made the text
 * twice as long (8.1 against 4.6 MB) for the module to turn into a string and for JSON.parse.
 * The rows come out as a plain SELECT gives them: the same keys in the same order, integers and
 * text unchanged, NULL as null. Only for columns without REAL or BLOB values: json_array rejects
 * a BLOB and prints a REAL with 15 significant digits. Row order follows the scan (rowid or
 * primary key order, no ORDER BY).
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

/** A bulk read that SQLite is running; `rows` gives its answer (Database.startRead). */
export interface StartedRead<T> {
  rows: Promise<T[]>;
}

/**
 * `SELECT columns <rest>` as row objects; `rest` starts at FROM (with WHERE and params as needed).
 * Column names and `rest` come from our own code, never from input.
 */
export async function readRows<T>(
  db: Database,
  columns: readonly string[],
  rest: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await startReadRows<T>(db, columns, rest, params)).rows;
}

/** readRows(), resolving once SQLite runs the statement (for rows wanted a while later). */
export async function startReadRows<T>(
  db: Database,
  columns: readonly string[],
  rest: string,
  params: unknown[] = [],
): Promise<StartedRead<T>> {
  const toRows = rowsFromJson<T>(columns);
  const started = await db.startRead<{ rows: string }[]>(
    `SELECT json_group_array(json_array(${quoted(columns)})) AS rows ${rest}`,
    params,
  );
  return { rows: started.rows.then(([row]) => toRows(row.rows)) };
}

/**
 * The rows of a SELECT of our own (`inner`, naming exactly `columns`, in `order`) through one JSON
 * text: for a hot read of hundreds of small rows. A list page's heads (500 rows of 4 columns) were
 * the largest part of its main-thread time after the answer's bytes: the whole list of 1,000
 * took 9.7 ms of main thread with row objects, 6.6 ms this way. `order` orders them again in the
 * aggregate (SQLite 3.44's ORDER BY inside an aggregate), e.g. `id DESC`.
 */
export async function readSelectRows<T>(
  db: Database,
  columns: readonly string[],
  inner: string,
  order: string,
  params: unknown[] = [],
): Promise<T[]> {
  const toRows = rowsFromJson<T>(columns);
  // Not json_group_array(... ORDER BY): SQLite's sorter drops the JSON subtype, and each row would come out as a quoted string.
  const [row] = await db.read<{ rows: string }[]>(
    `SELECT '[' || coalesce(group_concat(json_array(${quoted(columns)}), ',' ORDER BY ${order}), '') || ']' AS rows FROM (${inner})`,
    params,
  );
  return toRows(row.rows);
}

/** The columns as SQL identifiers, for json_array(). */
function quoted(columns: readonly string[]): string {
  return columns.map((c) => `"${c}"`).join(', ');
}

/** Turns the JSON text of an array of rows (arrays of values in `columns` order) into row objects. */
function rowsFromJson<T>(columns: readonly string[]): (text: string) => T[] {
  const toRow = rowBuilder<T>(columns);
  return (text) => (JSON.parse(text) as unknown[][]).map(toRow);
}

const builders = new Map<string, (values: unknown[]) => unknown>();

/**
 * A function that names a row's values, made once per column list: an object literal with the
 * columns as keys (10,000 rows of 28 columns: 5-10 ms, against 15-70 ms for a loop that adds the
 * keys one by one). The names are our tables' columns, never input, each written as a JSON string.
 */
function rowBuilder<T>(columns: readonly string[]): (values: unknown[]) => T {
  const key = columns.join('\n');
  let build = builders.get(key);
  if (!build) {
    // In an object literal this key would set the prototype instead of naming a value.
    if (columns.includes('__proto__')) throw new Error('bulk read: a column named __proto__');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the literal above, for speed; names are ours
    build = new Function('v', `return { ${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')} };`) as (
      values: unknown[],
    ) => unknown;
    builders.set(key, build);
  }
  return build as (values: unknown[]) => T;
}

/** Every row of `table`, as `SELECT * FROM table` gives them. */
export async function readTable<T>(db: Database, table: string): Promise<T[]> {
  return (await startReadTable<T>(db, table)).rows;
}

/** readTable(), resolving once SQLite runs the statement. */
export async function startReadTable<T>(db: Database, table: string): Promise<StartedRead<T>> {
  return startReadRows<T>(db, await tableColumns(db, table), `FROM "${table}"`);
}
