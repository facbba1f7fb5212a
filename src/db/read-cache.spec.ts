import { ReadCache, ReadCacheMap } from './read-cache';

/** A load the test finishes by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ReadCache', () => {
  it('loads once and keeps the value', async () => {
    const cache = new ReadCache<string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get(load)).toBe('v1');
    expect(await cache.get(load)).toBe('v1');
    expect(cache.peek()).toBe('v1');
    expect(loads).toBe(1);
  });

  it('loads again after a drop', async () => {
    const cache = new ReadCache<string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.get(load);
    cache.drop();
    expect(cache.peek()).toBeNull();
    expect(await cache.get(load)).toBe('v2');
  });

  it('answers, but does not keep, a load that a drop overtook', async () => {
    const cache = new ReadCache<string>();
    const slow = deferred<string>();
    const pending = cache.get(() => slow.promise);
    cache.drop();
    slow.resolve('read before the commit');
    expect(await pending).toBe('read before the commit');
    expect(cache.peek()).toBeNull();
    expect(await cache.get(async () => 'read after the commit')).toBe('read after the commit');
    expect(cache.peek()).toBe('read after the commit');
  });
});

describe('ReadCacheMap', () => {
  it('keeps values by key, and only those keep() accepts', async () => {
    const cache = new ReadCacheMap<string, number | null>(10);
    let loads = 0;
    const load = (v: number | null) => async () => (loads++, v);
    const known = (v: number | null) => v !== null;
    expect(await cache.get('a', load(1), known)).toBe(1);
    expect(await cache.get('a', load(2), known)).toBe(1);
    expect(await cache.get('x', load(null), known)).toBeNull();
    expect(await cache.get('x', load(3), known)).toBe(3);
    expect(loads).toBe(3);
  });

  it('drops what drop() picks, and everything without an argument', async () => {
    const cache = new ReadCacheMap<string, number>(10);
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    cache.drop((v) => v === 1);
    expect(await cache.get('a', async () => 10)).toBe(10);
    expect(await cache.get('b', async () => 20)).toBe(2);
    cache.drop();
    expect(await cache.get('b', async () => 20)).toBe(20);
  });

  it('answers, but does not keep, a load that a drop overtook (a key revoked meanwhile works once, not on)', async () => {
    const cache = new ReadCacheMap<string, string>(10);
    const slow = deferred<string>();
    const pending = cache.get('key', () => slow.promise);
    cache.drop();
    slow.resolve('read before the revocation committed');
    expect(await pending).toBe('read before the revocation committed');
    expect(await cache.get('key', async () => 'gone')).toBe('gone');
  });

  it('starts afresh when full', async () => {
    const cache = new ReadCacheMap<number, number>(2);
    await cache.get(1, async () => 1);
    await cache.get(2, async () => 2);
    await cache.get(3, async () => 3);
    expect(await cache.get(1, async () => 100)).toBe(100);
    expect(await cache.get(3, async () => 300)).toBe(3);
  });
});
