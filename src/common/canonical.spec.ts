import { canonicalJson, changedFields } from './canonical';

describe('canonicalJson', () => {
  it.each<[string, unknown, unknown]>([
    ['key order at the top', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['key order in nested objects', { x: { c: 3, d: [1, { f: 1, e: 2 }] } }, { x: { d: [1, { e: 2, f: 1 }], c: 3 } }],
    ['undefined values', { a: 1, b: undefined }, { a: 1 }],
    ['nested undefined values', { h: { url: 'u', body: undefined } }, { h: { url: 'u' } }],
  ])('ignores %s', (_what, a, b) => {
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it.each<[string, unknown, unknown]>([
    ['array order', [1, 2], [2, 1]],
    ['null and a missing key', { a: null }, {}],
    ['a number and a numeric string', { a: 1 }, { a: '1' }],
    ['false and null', { a: false }, { a: null }],
    ['an empty array and an empty object', { a: [] }, { a: {} }],
  ])('tells apart %s', (_what, a, b) => {
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
  });

  it.each<[unknown, string]>([
    [{ b: 1, a: { d: null, c: 'x' } }, '{"a":{"c":"x","d":null},"b":1}'],
    [[{ b: 1, a: 2 }], '[{"a":2,"b":1}]'],
    ['text', '"text"'],
    [42, '42'],
    [null, 'null'],
  ])('writes %j as %s', (value, json) => {
    expect(canonicalJson(value)).toBe(json);
  });
});

describe('changedFields', () => {
  const before = {
    name: 'NAS',
    interval_s: 60,
    tags: ['lab'],
    channels: null,
    kind: 'http',
    http: {
      url: 'https://nas.local/',
      method: 'GET',
      headers: [{ name: 'Cookie', value: 'a', secret: true }],
      auth: { type: 'bearer', token: 't1' },
    },
  };

  it.each<[string, Record<string, unknown>, string[]]>([
    ['nothing for an equal copy', structuredClone(before), []],
    [
      'nothing when only key order differs',
      { http: { ...before.http }, kind: 'http', channels: null, tags: ['lab'], interval_s: 60, name: 'NAS' },
      [],
    ],
    ['a top-level field', { ...before, interval_s: 120 }, ['interval_s']],
    ['an array field', { ...before, tags: ['lab', 'nas'] }, ['tags']],
    ['a field going from null to a value', { ...before, channels: [1] }, ['channels']],
    ['a kind setting, dotted', { ...before, http: { ...before.http, url: 'https://nas.lan/' } }, ['http.url']],
    [
      'several fields, sorted',
      { ...before, name: 'N', interval_s: 30, http: { ...before.http, method: 'HEAD', url: 'x' } },
      ['http.method', 'http.url', 'interval_s', 'name'],
    ],
    [
      'a secret by its name only',
      { ...before, http: { ...before.http, auth: { type: 'bearer', token: 't2' } } },
      ['http.auth'],
    ],
    [
      'a secret header by the headers field only',
      { ...before, http: { ...before.http, headers: [{ name: 'Cookie', value: 'b', secret: true }] } },
      ['http.headers'],
    ],
    ['an added field', { ...before, group: 'lab' }, ['group']],
    ['a removed field', { name: 'NAS', interval_s: 60, tags: ['lab'], kind: 'http', http: before.http }, ['channels']],
    [
      'both kind keys when the kind changes',
      { ...before, kind: 'tcp', http: undefined, tcp: { host: 'nas.local', port: 22 } },
      ['http', 'kind', 'tcp'],
    ],
  ])('lists %s', (_what, after, fields) => {
    expect(changedFields(before, after)).toEqual(fields);
  });

  it('never lists secret values themselves', () => {
    const after = { ...before, http: { ...before.http, auth: { type: 'bearer', token: 'brand-new-token' } } };
    expect(changedFields(before, after).join(' ')).not.toContain('brand-new-token');
  });
});
