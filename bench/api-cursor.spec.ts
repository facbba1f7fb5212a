import { nextCursor } from './scenarios/api';

describe('nextCursor (read from the end of a page)', () => {
  it.each<[string, string | number | null]>([
    ['{"items":[{"id":3}],"next_cursor":3}', 3],
    ['{"items":[],"next_cursor":null}', null],
    ['{"items":[{"next_cursor":1}],"next_cursor":"1767225600000:7"}', '1767225600000:7'],
    ['{"items":[],"next_cursor":"a\\"b"}\n', 'a"b'],
  ])('%s → %j', (body, cursor) => {
    expect(nextCursor(body)).toEqual(cursor);
    expect(nextCursor(body)).toEqual((JSON.parse(body) as { next_cursor: unknown }).next_cursor);
  });

  it('refuses an answer that does not end with a cursor', () => {
    expect(() => nextCursor('{"items":[]}')).toThrow(/no next_cursor/);
  });
});
