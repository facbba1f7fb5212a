import { ReadCache } from './read-cache';

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
