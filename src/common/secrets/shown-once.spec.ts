import { shownOnce, shownOnceIn } from './shown-once';

describe('ShownOnce', () => {
  it.each<[string, unknown, string]>([
    ['a string', { key: shownOnce('fs_abc', 'make another') }, '{"key":"fs_abc"}'],
    ['a list', { codes: shownOnce(['a-1', 'b-2'], 'make another') }, '{"codes":["a-1","b-2"]}'],
    [
      'beside plain fields',
      { id: 3, url: shownOnce('http://x/hb/t', 'rotate'), n: null },
      '{"id":3,"url":"http://x/hb/t","n":null}',
    ],
  ])('goes over the wire as its plain value: %s', (_, answer, json) => {
    expect(JSON.stringify(answer)).toBe(json);
  });

  it.each<[string, unknown, { path: string; again: string }[]]>([
    ['nothing in a plain answer', { id: 1, name: 'x', tags: ['a'], state: { error: null } }, []],
    ['nothing in null, a string or a number', null, []],
    [
      'a top-level field',
      { id: 1, key: shownOnce('k', 'revoke and make another') },
      [{ path: 'key', again: 'revoke and make another' }],
    ],
    [
      'nested fields and list items, in document order',
      { a: { secret: shownOnce('s', 'x') }, items: [{ url: shownOnce('u', 'y') }, { url: 'plain' }] },
      [
        { path: 'a.secret', again: 'x' },
        { path: 'items[0].url', again: 'y' },
      ],
    ],
    ['a whole answer', shownOnce('s', 'z'), [{ path: '', again: 'z' }]],
    ['nothing inside a buffer', { raw: Buffer.from('abc') }, []],
  ])('shownOnceIn finds %s', (_, answer, found) => {
    expect(shownOnceIn(answer)).toEqual(found);
  });
});
