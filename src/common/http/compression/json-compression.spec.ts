import { compressiblePath, COMPRESS_FROM, shouldCompress } from './json-compression';

describe('compressiblePath', () => {
  it.each<[string | undefined, boolean]>([
    ['/api/v1/monitors', true],
    ['/api/v1/monitors?limit=500', true],
    ['/api/public/status', true],
    ['/api/v1/stream', false],
    ['/api/v1/stream?last=4', false],
    ['/hb/abc', false],
    ['/status', false],
    ['/', false],
    [undefined, false],
  ])('%s: %s', (url, want) => expect(compressiblePath(url)).toBe(want));
});

describe('shouldCompress', () => {
  const json = (over: Partial<{ type: unknown; encoding: unknown; length: unknown }> = {}) => ({
    type: 'application/json; charset=utf-8',
    encoding: undefined,
    length: 5000,
    ...over,
  });
  it.each<[string, number, ReturnType<typeof json>, boolean]>([
    ['JSON past the threshold', 200, json(), true],
    ['problem+json', 422, json({ type: 'application/problem+json' }), true],
    ['exactly the threshold', 200, json({ length: COMPRESS_FROM }), true],
    ['a string length', 200, json({ length: '4096' }), true],
    ['under the threshold', 200, json({ length: COMPRESS_FROM - 1 }), false],
    ['no known length (a stream)', 200, json({ length: undefined }), false],
    ['already encoded', 200, json({ encoding: 'br' }), false],
    ['not JSON', 200, json({ type: 'text/html; charset=utf-8' }), false],
    ['an event stream', 200, json({ type: 'text/event-stream' }), false],
    ['no type', 200, json({ type: undefined }), false],
    ['204', 204, json(), false],
    ['304', 304, json(), false],
  ])('%s', (_, status, headers, want) => expect(shouldCompress(status, headers)).toBe(want));
});
