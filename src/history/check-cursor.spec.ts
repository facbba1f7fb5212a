import { ApiError } from '../common/http/api-error';
import { pageQuery } from '../common/http/paging';
import { CHECK_CURSOR, CheckCursor, CHECKS_LIMIT, isAfterCursor } from './check-cursor';

describe('CHECK_CURSOR', () => {
  it.each<[string, CheckCursor]>([
    ['1767225600000:7', { at: 1767225600000, monitorId: 7 }],
    ['0:0', { at: 0, monitorId: 0 }],
    ['999999999999999:999999999999999', { at: 999999999999999, monitorId: 999999999999999 }],
  ])('reads %j', (text, cursor) => {
    expect(CHECK_CURSOR.parse(text)).toEqual(cursor);
  });

  it.each([
    '',
    '123',
    '123:',
    ':7',
    '1.5:7',
    '12:-3',
    'a:b',
    '1:2:3',
    ' 1:2',
    '1000000000000000:1',
    '1:1000000000000000',
  ])('refuses %j', (text) => {
    expect(CHECK_CURSOR.parse(text)).toBeNull();
  });

  it('writes `<epoch_ms>:<monitor_id>`, which reads back unchanged', () => {
    const cursor = { at: 1767225600123, monitorId: 42 };
    expect(CHECK_CURSOR.format(cursor)).toBe('1767225600123:42');
    expect(CHECK_CURSOR.parse(String(CHECK_CURSOR.format(cursor)))).toEqual(cursor);
  });

  it('gives GET /checks its own limit rule (default 100, 1-500) and names its shape in a 422', () => {
    expect(pageQuery({}, CHECK_CURSOR, CHECKS_LIMIT)).toEqual({ limit: 100, before: null });
    expect(pageQuery({ limit: '500', before: '5:1' }, CHECK_CURSOR, CHECKS_LIMIT)).toEqual({
      limit: 500,
      before: { at: 5, monitorId: 1 },
    });
    let err: unknown;
    try {
      pageQuery({ before: '123' }, CHECK_CURSOR, CHECKS_LIMIT);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).fields).toEqual([
      { field: 'before', message: 'must be the next_cursor of a previous page (<epoch_ms>:<number>)' },
    ]);
  });
});

describe('isAfterCursor', () => {
  const cursor = { at: 1000, monitorId: 5 };
  it.each<[string, number, number, boolean]>([
    ['an older check', 999, 9, true],
    ['the same time, a lower monitor id', 1000, 4, true],
    ['the cursor row itself', 1000, 5, false],
    ['the same time, a higher monitor id', 1000, 6, false],
    ['a newer check', 1001, 1, false],
  ])('%s is on a later page: %s', (_what, at, monitor_id, after) => {
    expect(isAfterCursor({ at, monitor_id }, cursor)).toBe(after);
  });

  it('takes every check when there is no cursor', () => {
    expect(isAfterCursor({ at: 9e12, monitor_id: 1 }, null)).toBe(true);
  });
});
