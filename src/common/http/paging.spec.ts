import { ApiError } from './api-error';
import {
  commaLedJson,
  CursorCodec,
  DEFAULT_LIMIT,
  EPOCH_CURSOR,
  ID_CURSOR,
  intQuery,
  LimitRule,
  pageJson,
  pageOf,
  pageQuery,
  toPage,
} from './paging';

/** Runs fn and returns the ApiError it throws (fails the test when it throws nothing or something else). */
function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('intQuery', () => {
  const checks: LimitRule = { default: 100, min: 1, max: 500 };

  it.each<[unknown, number]>([
    [undefined, 100],
    ['', 100],
    ['1', 1],
    ['250', 250],
    ['500', 500],
    ['0007', 7],
  ])('reads %j as %i', (raw, n) => {
    expect(intQuery('limit', raw, checks)).toBe(n);
  });

  it.each<[unknown]>([
    ['0'],
    ['501'],
    ['-1'],
    ['1.5'],
    ['abc'],
    ['1e3'],
    [' 5'],
    ['5 '],
    ['+5'],
    ['0x10'],
    ['99999999999999999'],
    [['1', '2']],
    [5],
    [null],
  ])('rejects %j as 422 invalid on the named field', (raw) => {
    const err = apiError(() => intQuery('limit', raw, checks));
    expect(err.code).toBe('invalid');
    expect(err.status).toBe(422);
    expect(err.field).toBe('limit');
    expect(err.fields).toEqual([{ field: 'limit', message: expect.stringContaining('1 to 500') }]);
  });
});

/** A codec that takes only `c<digits>` cursors, so tests can tell the codec was consulted. */
const LETTER_CURSOR: CursorCodec<number> = {
  parse: (t) => (/^c\d+$/.test(t) ? Number(t.slice(1)) : null),
  format: (n) => `c${n}`,
  shape: 'c<number>',
};

describe('pageQuery', () => {
  it.each<[Record<string, unknown>, { limit: number; before: number | null }]>([
    [{}, { limit: 50, before: null }],
    [{ limit: '' }, { limit: 50, before: null }],
    [{ limit: '1' }, { limit: 1, before: null }],
    [{ limit: '500' }, { limit: 500, before: null }],
    [{ before: '' }, { limit: 50, before: null }],
    [
      { before: '1767225600000', limit: '20' },
      { limit: 20, before: 1767225600000 },
    ],
    [{ before: '0' }, { limit: 50, before: 0 }],
    [{ before: '9007199254740991' }, { limit: 50, before: Number.MAX_SAFE_INTEGER }],
  ])('reads %j as %j with id cursors', (query, expected) => {
    expect(pageQuery(query, ID_CURSOR)).toEqual(expected);
  });

  it('applies the default page size of 50, range 1-500', () => {
    expect(DEFAULT_LIMIT).toEqual({ default: 50, min: 1, max: 500 });
  });

  it.each(['0', '501', '-1', '1.5', 'abc', '1e3'])('rejects limit=%j as invalid on field "limit"', (limit) => {
    const err = apiError(() => pageQuery({ limit }, ID_CURSOR));
    expect(err.toBody()).toEqual({
      error: {
        code: 'invalid',
        message: expect.stringMatching(/^limit: /),
        field: 'limit',
        fields: [expect.objectContaining({ field: 'limit' })],
      },
    });
  });

  it('uses the route rule when one is given', () => {
    const rule: LimitRule = { default: 100, min: 1, max: 500 };
    expect(pageQuery({}, ID_CURSOR, rule).limit).toBe(100);
    expect(apiError(() => pageQuery({ limit: '501' }, ID_CURSOR, rule)).field).toBe('limit');
  });

  it.each<[string, unknown]>([
    ['over 100 characters', 'c' + '1'.repeat(100)],
    ['a repeated parameter', ['c1', 'c2']],
    ['a number', 5],
    ['null', null],
    ['not in the codec shape', '12'],
  ])('rejects a before that is %s as invalid on field "before", naming the shape', (_what, before) => {
    const err = apiError(() => pageQuery({ before }, LETTER_CURSOR));
    expect(err.code).toBe('invalid');
    expect(err.fields).toEqual([
      { field: 'before', message: 'must be the next_cursor of a previous page (c<number>)' },
    ]);
  });

  it('hands the cursor text to the codec and returns what it decodes', () => {
    expect(pageQuery({ before: 'c' + '1'.repeat(99) }, LETTER_CURSOR).before).toBe(Number('1'.repeat(99)));
    expect(pageQuery({ before: 'c42', limit: '3' }, LETTER_CURSOR)).toEqual({ limit: 3, before: 42 });
  });

  it('reports a bad limit and a bad before together, limit first', () => {
    const err = apiError(() => pageQuery({ limit: '0', before: 'x' }, ID_CURSOR));
    expect(err.field).toBe('limit');
    expect(err.fields!.map((f) => f.field)).toEqual(['limit', 'before']);
  });
});

describe('ID_CURSOR and EPOCH_CURSOR', () => {
  it.each<[string, number]>([
    ['0', 0],
    ['42', 42],
    ['1767225600000', 1767225600000],
    ['9007199254740991', 9007199254740991],
  ])('read %j as %j', (text, n) => {
    expect(ID_CURSOR.parse(text)).toBe(n);
    expect(EPOCH_CURSOR.parse(text)).toBe(n);
  });

  it.each(['', '-1', '1.5', 'abc', '1e3', ' 1', '1 ', '+1', '9007199254740992', '12345678901234567'])(
    'refuse %j',
    (text) => {
      expect(ID_CURSOR.parse(text)).toBeNull();
      expect(EPOCH_CURSOR.parse(text)).toBeNull();
    },
  );

  it('write the number itself, which reads back unchanged', () => {
    expect(ID_CURSOR.format(98)).toBe(98);
    expect(EPOCH_CURSOR.parse(String(EPOCH_CURSOR.format(1767225600123)))).toBe(1767225600123);
  });

  it('name epoch milliseconds in the 422 for a bad epoch cursor', () => {
    expect(apiError(() => pageQuery({ before: 'yesterday' }, EPOCH_CURSOR)).fields).toEqual([
      { field: 'before', message: 'must be the next_cursor of a previous page (epoch milliseconds)' },
    ]);
  });
});

describe('toPage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: 100 - i }));
  const map = (r: { id: number }) => `row ${r.id}`;
  const cursorOf = (r: { id: number }) => r.id;

  it.each<[string, number, string[], number | null]>([
    ['no rows', 0, [], null],
    ['fewer rows than the limit', 2, ['row 100', 'row 99'], null],
    ['exactly limit rows', 3, ['row 100', 'row 99', 'row 98'], null],
    ['limit+1 rows', 4, ['row 100', 'row 99', 'row 98'], 98],
  ])('with %s (limit 3) shows the first rows and a cursor only when more exist', (_label, n, items, cursor) => {
    expect(toPage(rows(n), 3, map, cursorOf)).toEqual({ items, next_cursor: cursor });
  });

  it('takes the cursor from the last row shown, never from the extra row', () => {
    const cursorOf = jest.fn((r: { id: number }) => `c${r.id}`);
    expect(toPage(rows(2), 1, map, cursorOf).next_cursor).toBe('c100');
    expect(cursorOf).toHaveBeenCalledTimes(1);
  });

  it('maps only the rows shown', () => {
    const map = jest.fn((r: { id: number }) => r.id);
    toPage(rows(4), 3, map, cursorOf);
    expect(map.mock.calls.map(([r]) => r.id)).toEqual([100, 99, 98]);
  });
});

describe('pageOf', () => {
  it.each<[number, number[], number | null]>([
    [0, [], null],
    [2, [100, 99], null],
    [3, [100, 99], 99],
  ])('of %i rows with limit 2 shows %j with next_cursor %j', (n, ids, cursor) => {
    const rows = Array.from({ length: n }, (_, i) => ({ id: 100 - i }));
    expect(pageOf(rows, 2, (r) => r.id)).toEqual({ items: ids.map((id) => ({ id })), next_cursor: cursor });
  });
});

describe('pageJson', () => {
  it.each<[string[], string | number | null]>([
    [[], null],
    [['{"id":2}', '{"id":1}'], null],
    [['{"id":3}'], 3],
    [['{"a":"b"}'], '1767225600000:7'],
    [['{"name":"Café ☕"}', '{"name":"\\u0000"}'], null],
  ])('writes items %j with next_cursor %j as the JSON a Page would be', (items, next_cursor) => {
    const bytes = Buffer.concat(pageJson({ items: items.map((i) => commaLedJson(JSON.parse(i))), next_cursor }));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ items: items.map((i) => JSON.parse(i)), next_cursor });
  });

  it('writes one piece per item, and leaves the kept items as they were', () => {
    const items = [commaLedJson({ id: 2 }), commaLedJson({ id: 1 })];
    const parts = pageJson({ items, next_cursor: null });
    expect(parts).toHaveLength(items.length + 2);
    expect(pageJson({ items, next_cursor: null }).map(String)).toEqual(parts.map(String));
    expect(items.map(String)).toEqual([',{"id":2}', ',{"id":1}']);
  });
});
