import type { JsonRule } from '../kinds';
import { evaluateJsonRule, parseJsonPath, PathSegment } from './json-path';

describe('parseJsonPath', () => {
  it.each<[string, PathSegment[]]>([
    ['$', []],
    ['$.status', ['status']],
    ['$.a.b[0]', ['a', 'b', 0]],
    ['$.items[12].name', ['items', 12, 'name']],
    ['$[0][1]', [0, 1]],
    ['$.with_underscore.and-dash', ['with_underscore', 'and-dash']],
    ['$["key with space"]', ['key with space']],
    ["$['single']", ['single']],
    ['$["quote \\" inside"]', ['quote " inside']],
    ['$.a["b.c"].d', ['a', 'b.c', 'd']],
  ])('parses %s', (path, segments) => {
    expect(parseJsonPath(path)).toEqual({ ok: true, segments });
  });

  it.each<[string, string]>([
    ['', 'json path must start with $; write it like $.a.b[0] or $["key with space"]'],
    ['status', 'json path must start with $; write it like $.a.b[0] or $["key with space"]'],
    ['$.', 'json path "$." is not understood at position 1; write it like $.a.b[0] or $["key with space"]'],
    ['$..a', 'json path "$..a" is not understood at position 1; write it like $.a.b[0] or $["key with space"]'],
    ['$.a[*]', 'json path "$.a[*]" is not understood at position 3; write it like $.a.b[0] or $["key with space"]'],
    ['$.a[-1]', 'json path "$.a[-1]" is not understood at position 3; write it like $.a.b[0] or $["key with space"]'],
    ['$.a[01]', 'json path "$.a[01]" is not understood at position 3; write it like $.a.b[0] or $["key with space"]'],
    ['$.a b', 'json path "$.a b" is not understood at position 3; write it like $.a.b[0] or $["key with space"]'],
    ['$["open', 'json path "$["open" is not understood at position 1; write it like $.a.b[0] or $["key with space"]'],
    ['$.1a', 'json path "$.1a" is not understood at position 1; write it like $.a.b[0] or $["key with space"]'],
    [`$${'.a'.repeat(101)}`, 'json path is longer than 200 characters'],
  ])('rejects %j', (path, message) => {
    expect(parseJsonPath(path)).toEqual({ ok: false, message });
  });
});

describe('evaluateJsonRule', () => {
  const body = {
    status: 'ok',
    version: '1.2.3',
    uptime: 12345,
    count: '42',
    ratio: 0.5,
    ok: true,
    nothing: null,
    checks: { db: 'ok', cache: 'degraded' },
    items: [1, 2, 3],
    tags: ['a', 'b'],
    'key with space': 'yes',
  };
  const rule = (path: string, op: JsonRule['op'], value?: JsonRule['value']): JsonRule => ({ path, op, value });

  it.each<[JsonRule]>([
    [rule('$.status', '==', 'ok')],
    [rule('$.uptime', '==', 12345)],
    [rule('$.uptime', '==', '12345')],
    [rule('$.count', '==', 42)],
    [rule('$.ok', '==', true)],
    [rule('$.nothing', '==', null)],
    [rule('$.checks.db', '==', 'ok')],
    [rule('$.items[2]', '==', 3)],
    [rule('$["key with space"]', '==', 'yes')],
    [rule('$.status', '!=', 'down')],
    [rule('$.ok', '!=', 'true')],
    [rule('$.uptime', '>', 100)],
    [rule('$.uptime', '>=', 12345)],
    [rule('$.count', '<', 43)],
    [rule('$.ratio', '<=', '0.5')],
    [rule('$.version', 'contains', '1.2')],
    [rule('$.tags', 'contains', 'b')],
    [rule('$.items', 'contains', 2)],
    [rule('$.items', 'contains', '2')],
    [rule('$.nothing', 'exists')],
    [rule('$.checks', 'exists')],
    [rule('$', 'exists')],
    [rule('$.error', 'not_exists')],
    [rule('$.items[3]', 'not_exists')],
    [rule('$.status.deeper', 'not_exists')],
  ])('passes %j', (r) => {
    expect(evaluateJsonRule(r, body)).toBeNull();
  });

  it.each<[JsonRule, string]>([
    [rule('$.checks.cache', '==', 'ok'), '$.checks.cache: expected == "ok", got "degraded"'],
    [rule('$.uptime', '==', '12345.5'), '$.uptime: expected == "12345.5", got 12345'],
    [rule('$.ok', '==', 'true'), '$.ok: expected == "true", got true'],
    [rule('$.nothing', '==', 0), '$.nothing: expected == 0, got null'],
    [rule('$.checks', '==', 'ok'), '$.checks: expected == "ok", got {"db":"ok","cache":"degraded"}'],
    [rule('$.status', '!=', 'ok'), '$.status: expected != "ok", got "ok"'],
    [rule('$.uptime', '<', 100), '$.uptime: expected < 100, got 12345'],
    [rule('$.count', '>', 42), '$.count: expected > 42, got "42"'],
    [rule('$.status', '>', 1), '$.status: expected > 1, but only numbers can be compared; got "ok"'],
    [rule('$.uptime', '>=', 'many'), '$.uptime: expected >= "many", but only numbers can be compared; got 12345'],
    [rule('$.version', 'contains', '2.0'), '$.version: expected contains "2.0", got "1.2.3"'],
    [rule('$.tags', 'contains', 'c'), '$.tags: expected contains "c", got ["a","b"]'],
    [
      rule('$.uptime', 'contains', 1),
      '$.uptime: expected contains 1, but contains needs a string or an array; got 12345',
    ],
    [rule('$.missing', '==', 'ok'), '$.missing: not found (expected == "ok")'],
    [rule('$.items[9]', '>', 0), '$.items[9]: not found (expected > 0)'],
    [rule('$.missing', 'exists'), '$.missing: not found'],
    [rule('$.status', 'not_exists'), '$.status: expected not to exist, got "ok"'],
    [rule('$.status', '=='), '$.status: the rule has no value to compare with'],
    [rule('status', '==', 'ok'), 'json path must start with $; write it like $.a.b[0] or $["key with space"]'],
  ])('fails %j with a message that says why', (r, message) => {
    expect(evaluateJsonRule(r, body)).toBe(message);
  });

  it('clips long values in messages', () => {
    const message = evaluateJsonRule(rule('$.s', '==', 'x'), { s: 'y'.repeat(500) });
    expect(message).toBe(`$.s: expected == "x", got "${'y'.repeat(79)}…`);
  });

  it('applies rules to a body that is an array or a scalar', () => {
    expect(evaluateJsonRule(rule('$[1]', '==', 'b'), ['a', 'b'])).toBeNull();
    expect(evaluateJsonRule(rule('$', '==', 7), 7)).toBeNull();
  });
});
