/**
 * A cheap look at the database file before SQLite opens it, so a truncated or foreign file is
 * reported at start rather than as SQLITE_CORRUPT from whichever query first reads a missing page
 * (perhaps hours later). Reads the 100-byte header only; never a full integrity check, which would
 * cost seconds on a large database at every start. Pure.
 * Header layout: https://www.sqlite.org/fileformat.html#the_database_header
 */
const MAGIC = 'SQLite format 3\0';
export const HEADER_BYTES = 100;

/**
 * What is wrong with a database file of `size` bytes starting with `header`, or null when nothing
 * visible is. `walBytes` is the size of its -wal file: while one holds frames, the main file may
 * legitimately be shorter than its header says (a checkpoint cut short), and SQLite recovers it.
 */
export function databaseHeaderProblem(header: Buffer, size: number, walBytes: number): string | null {
  if (size === 0) return null; // a new database: SQLite writes the header on first use
  if (size < HEADER_BYTES || header.length < HEADER_BYTES) return `truncated to ${size} bytes`;
  if (header.toString('latin1', 0, 16) !== MAGIC) return 'not a SQLite database';
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return 'the header is damaged';
  if (walBytes > 0) return null;
  if (size % pageSize !== 0) return `truncated: ${size} bytes is not a whole number of ${pageSize}-byte pages`;
  const pages = header.readUInt32BE(28);
  const changeCounter = header.readUInt32BE(24);
  const validFor = header.readUInt32BE(92);
  // SQLite trusts the page count only when it was written by the same change as the counter.
  if (pages > 0 && validFor === changeCounter && size < pages * pageSize) {
    return `truncated: ${size} bytes, the header says ${pages * pageSize}`;
  }
  return null;
}
