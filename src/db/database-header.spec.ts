import { databaseHeaderProblem, HEADER_BYTES } from './database-header';

/** A header as SQLite writes it: page size, change counter, page count and version-valid-for. */
function header(
  o: { pageSize?: number; pages?: number; counter?: number; validFor?: number; magic?: string } = {},
): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write(o.magic ?? 'SQLite format 3\0', 0, 'latin1');
  h.writeUInt16BE(o.pageSize === 65536 ? 1 : (o.pageSize ?? 4096), 16);
  h.writeUInt32BE(o.counter ?? 9, 24);
  h.writeUInt32BE(o.pages ?? 10, 28);
  h.writeUInt32BE(o.validFor ?? o.counter ?? 9, 92);
  return h;
}

describe('databaseHeaderProblem', () => {
  it.each<[string, Buffer, number, number]>([
    ['an empty file (a new database)', Buffer.alloc(0), 0, 0],
    ['a whole file', header({ pages: 10 }), 40960, 0],
    ['a file longer than its header says (free pages at the end)', header({ pages: 10 }), 49152, 0],
    ['64 KiB pages', header({ pageSize: 65536, pages: 2 }), 131072, 0],
    [
      'a short file whose page count is stale (not valid for this change)',
      header({ pages: 10, counter: 9, validFor: 8 }),
      8192,
      0,
    ],
    ['a short file with a -wal file that SQLite will recover from', header({ pages: 10 }), 8192, 4152],
  ])('finds nothing wrong with %s', (_what, h, size, wal) => {
    expect(databaseHeaderProblem(h, size, wal)).toBeNull();
  });

  it.each<[string, Buffer, number, RegExp]>([
    ['a file cut inside its header', Buffer.from('SQLite format 3\0'), 16, /truncated/],
    [
      'a file that is not SQLite',
      Buffer.concat([Buffer.from('hello, world'), Buffer.alloc(200)]),
      212,
      /not a SQLite database/,
    ],
    ['a file cut to fewer pages than its header says', header({ pages: 10 }), 20480, /truncated/],
    ['a file cut mid-page', header({ pages: 10 }), 40000, /truncated/],
    ['a header with an impossible page size', header({ pageSize: 1000 }), 40960, /damaged/],
  ])('reports %s', (_what, h, size, problem) => {
    expect(databaseHeaderProblem(h, size, 0)).toMatch(problem);
  });
});
