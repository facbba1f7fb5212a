/**
 * The query of a postgres or mysql monitor must be one statement that only reads. This is the
 * field check that says so early and clearly; the checkers also run the query in a READ ONLY
 * transaction (and postgres through the extended protocol, which takes one statement only), so
 * the server itself refuses whatever this check could miss. Pure.
 */
export type SqlDialect = 'postgres' | 'mysql';

const STARTS = ['SELECT', 'WITH', 'SHOW', 'VALUES', 'TABLE', 'EXPLAIN'];
const MYSQL_STARTS = ['DESCRIBE', 'DESC'];
/** Words that write, lock or leave the statement, anywhere outside strings and comments. */
const WRITES =
  /\b(INSERT|UPDATE|DELETE|MERGE|UPSERT|REPLACE|INTO|CREATE|DROP|ALTER|TRUNCATE|GRANT|REVOKE|COPY|CALL|LOCK|ANALYZE|ANALYSE|VACUUM|OUTFILE|DUMPFILE)\b/i;
const LOCKS = /\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i;

/** Null when the query is one read-only statement; otherwise why not, in words. */
export function readOnlyProblem(query: string, dialect: SqlDialect): string | null {
  const bare = withoutStringsAndComments(query, dialect);
  if (bare === null) return 'has a string or comment that is not closed';
  const body = bare.trim().replace(/;\s*$/, '').trim();
  if (body === '') return 'must be a statement, e.g. SELECT 1';
  if (body.includes(';')) return 'must be one statement: no ; between statements';
  const first = /^\(*\s*([a-z]+)/i.exec(body)?.[1]?.toUpperCase() ?? '';
  const starts = dialect === 'mysql' ? [...STARTS, ...MYSQL_STARTS] : STARTS;
  if (!starts.includes(first)) return `must be a statement that only reads: ${starts.join(', ')}`;
  const lock = LOCKS.exec(body);
  if (lock) return `must only read: FOR ${lock[1].toUpperCase().replace(/\s+/g, ' ')} takes locks`;
  const write = WRITES.exec(body);
  if (write) return `must only read: ${write[1].toUpperCase()} is not allowed`;
  return null;
}

/**
 * The query with string literals, quoted names and comments blanked (each by a space), or null when
 * one is not closed. PostgreSQL also has dollar quoting ($$…$$, $tag$…$tag$); MySQL backticks and
 * `#` comments. Backslash escapes are honoured in MySQL strings (its default sql_mode).
 */
export function withoutStringsAndComments(query: string, dialect: SqlDialect): string | null {
  let out = '';
  let i = 0;
  while (i < query.length) {
    const c = query[i];
    const two = query.slice(i, i + 2);
    if (two === '--' || (dialect === 'mysql' && c === '#')) {
      const end = query.indexOf('\n', i);
      i = end < 0 ? query.length : end + 1;
      out += ' ';
    } else if (two === '/*') {
      const end = query.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || (dialect === 'mysql' && c === '`')) {
      const end = closingQuote(query, i, c, dialect === 'mysql' && c !== '`');
      if (end < 0) return null;
      i = end + 1;
      out += ' ';
    } else if (dialect === 'postgres' && c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(query.slice(i))?.[0];
      if (!tag) {
        out += c;
        i += 1;
        continue;
      }
      const end = query.indexOf(tag, i + tag.length);
      if (end < 0) return null;
      i = end + tag.length;
      out += ' ';
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Index of the quote that closes the one at `start`; a doubled quote is an escaped one. */
function closingQuote(text: string, start: number, quote: string, backslash: boolean): number {
  for (let i = start + 1; i < text.length; i++) {
    if (backslash && text[i] === '\\') i += 1;
    else if (text[i] === quote) {
      if (text[i + 1] === quote) i += 1;
      else return i;
    }
  }
  return -1;
}
