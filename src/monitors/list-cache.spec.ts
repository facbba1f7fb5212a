import * as zlib from 'node:zlib';
import type { MonitorStats } from '../history/monitor-stats';
import type { MonitorState } from '../probes/status';
import { ListCache, ListingKey } from './list-cache';

const json = (text: string) => Buffer.from(`,${text}`);
const a = json('{"id":2}');
const b = json('{"id":1}');
const bAgain = json('{"id":1}');

describe('ListCache pages', () => {
  it.each<[string, Buffer[], number | null, boolean]>([
    ['the same items and cursor', [a, b], 1, true],
    ['an item remade (the same text in a new buffer: its monitor changed and changed back)', [a, bAgain], 1, false],
    ['an item less (a monitor deleted)', [a], 1, false],
    ['another cursor', [a, b], null, false],
  ])('answers the kept page only when it is made of the very same items and cursor: %s', (_, items, cursor, same) => {
    const cache = new ListCache();
    const first = cache.page('q', [a, b], 1);
    expect(cache.page('q', items, cursor) === first).toBe(same);
  });

  it('writes the page answer from the items, and compresses it once however often it is asked', async () => {
    const cache = new ListCache();
    const page = cache.page('q', [a, b], 1);
    const plain = Buffer.concat(page.parts as Buffer[]);
    expect(JSON.parse(plain.toString('utf8'))).toEqual({ items: [{ id: 2 }, { id: 1 }], next_cursor: 1 });
    expect(page.length).toBe(plain.length);
    const br = page.body('br');
    expect(cache.page('q', [a, b], 1).body('br')).toBe(br);
    expect(zlib.brotliDecompressSync((await br)!)).toEqual(plain);
    expect(zlib.gunzipSync((await page.body('gzip'))!)).toEqual(plain);
  });

  it('keeps pages of different queries apart', () => {
    const cache = new ListCache();
    const one = cache.page('limit=1', [a], 2);
    expect(cache.page('limit=2', [a, b], null)).not.toBe(one);
    expect(cache.page('limit=1', [a], 2)).toBe(one);
  });
});

describe('ListCache items', () => {
  const state = { status: 'up' } as MonitorState;
  const stats = {} as MonitorStats;
  const key: ListingKey = { updatedAt: 1, state, stats, muted: false };
  it.each<[string, ListingKey, boolean]>([
    ['the same row version, state, stats and muted flag', { ...key }, true],
    ['a newer row', { ...key, updatedAt: 2 }, false],
    ['a new state object', { ...key, state: { ...state } }, false],
    ['new stats', { ...key, stats: {} as MonitorStats }, false],
    ['a mute that began or ran out', { ...key, muted: true }, false],
  ])('reuses a kept JSON only for what it was made from: %s', (_, asked, reused) => {
    const cache = new ListCache();
    cache.getOrMake(7, key, () => a);
    expect(cache.get(7, asked) === a).toBe(reused);
  });

  it('forgets a monitor that changed', () => {
    const cache = new ListCache();
    cache.getOrMake(7, key, () => a);
    cache.drop(7);
    expect(cache.get(7, key)).toBeNull();
  });
});
