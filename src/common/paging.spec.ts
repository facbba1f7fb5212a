import { ApiError } from './api-error';
import { DEFAULT_LIMIT, intCursor, intQuery, LimitRule, pageQuery, toPage } from './paging';

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

  it.each<[unknown]>([['0'], ['501'], ['-1'], ['1.5'], ['abc'], ['1e3'], [' 5'], ['5 '], ['+5'], ['0x10'], ['99999999999999999'], [['1', '2']], [5], [null]])(
    'rejects %j as 422 invalid on the named field',
    (raw) => {
      const err = apiError(() => intQuery('limit', raw, checks));
      expect(err.code).toBe('invalid');
      expect(err.status).toBe(422);
      expect(err.field).toBe('limit');
      expect(err.fields).toEqual([{ field: 'limit', message: expect.stringContaining('1 to 500') }]);
    },
  );
});

describe('pageQuery', () => {
  it.each<[Record<string, unknown>, { limit: number; before: string | null }]>([
    [{}, { limit: 50, before: null }],
    [{ limit: '' }, { limit: 50, before: null }],
    [{ limit: '1' }, { limit: 1, before: null }],
    [{ limit: '500' }, { limit: 500, before: null }],
    [{ before: '' }, { limit: 50, before: null }],
    [{ before: '1767225600000', limit: '20' }, { limit: 20, before: '1767225600000' }],
    [{ before: 'x'.repeat(100) }, { limit: 50, before: 'x'.repeat(100) }],
  ])('reads %j as %j', (query, expected) => {
    expect(pageQuery(query)).toEqual(expected);
  });

  it('applies the default page size of 50, range 1-500', () => {
    expect(DEFAULT_LIMIT).toEqual({ default: 50, min: 1, max: 500 });
  });

  it.each(['0', '501', '-1', '1.5', 'abc', '1e3'])('rejects limit=%j as invalid on field "limit"', (limit) => {
    const err = apiError(() => pageQuery({ limit }));
    expect(err.toBody()).toEqual({
      error: { code: 'invalid', message: expect.stringMatching(/^limit: /), field: 'limit', fields: [expect.objectContaining({ field: 'limit' })] },
    });
  });

  it('uses the route rule when one is given', () => {
    const rule: LimitRule = { default: 100, min: 1, max: 500 };
    expect(pageQuery({}, rule).limit).toBe(100);
    expect(apiError(() => pageQuery({ limit: '501' }, rule)).field).toBe('limit');
  });

  it.each<[unknown]>([['x'.repeat(101)], [['a', 'b']], [5], [null]])('rejects before=%j as invalid on field "before"', (before) => {
    const err = apiError(() => pageQuery({ before }));
    expect(err.code).toBe('invalid');
    expect(err.field).toBe('before');
  });
});

describe('intCursor', () => {
  it.each<[string | null, number | null]>([
    [null, null],
    ['0', 0],
    ['42', 42],
    ['1767225600000', 1767225600000],
    ['9999999999999999', 9999999999999999],
  ])('reads %j as %j', (before, n) => {
    expect(intCursor(before)).toBe(n);
  });

  it.each(['', '-1', '1.5', 'abc', '1e3', ' 1', '12345678901234567'])('rejects %j as invalid on field "before"', (before) => {
    const err = apiError(() => intCursor(before));
    expect(err.code).toBe('invalid');
    expect(err.field).toBe('before');
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
});
