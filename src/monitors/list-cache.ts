/**
 * The kept answers of GET /monitors: each listed monitor's JSON, made once and reused until its
 * row (updated_at), live state, stats or muted flag change. Lists of thousands are read often and
 * change little between two reads, and serialising was the largest cost of a long list
 * (docs/performance.md). What a kept answer was made from is compared by identity: the engine
 * keeps a monitor's state object until its next change, and StatsService keeps a stats object
 * while its figures stay the same.
 *
 * A whole page is kept too, with its compressed bodies: while a page's items are the very same
 * kept JSON (and its cursor the same), its bytes are the same, so brotli ran once for it instead
 * of once per request (with 4 clients, compressing each answer anew made the list three times
 * slower than sending it plain). Nothing else decides whether a kept page is current: any change
 * of an item makes a new item buffer, so the page cannot outlive it.
 */
import type { ServerResponse } from 'node:http';
import type { Encoding } from '../common/http/compression/accept-encoding';
import { compressBody, COMPRESS_FROM } from '../common/http/compression/json-compression';
import { sendJsonParts } from '../common/http/json-parts';
import { pageJson } from '../common/http/paging';
import type { MonitorStats } from '../history/monitor-stats';
import type { MonitorState } from '../probes/status';

/** What a kept answer was made from. */
export interface ListingKey {
  updatedAt: number;
  state: MonitorState;
  stats: MonitorStats;
  muted: boolean;
}

interface Kept extends ListingKey {
  /** UTF-8, led by a comma (commaLedJson): pages are put together from these bytes as they are. */
  json: Buffer;
}

/** A page of the list answer: its pieces, and its compressed bodies, made at most once each. */
export class ListPage {
  readonly parts: readonly Buffer[];
  readonly length: number;
  private readonly encoded = new Map<Exclude<Encoding, 'identity'>, Promise<Buffer | null>>();

  constructor(
    readonly items: readonly Buffer[],
    readonly nextCursor: string | number | null,
  ) {
    this.parts = pageJson({ items: [...items], next_cursor: nextCursor });
    this.length = this.parts.reduce((n, p) => n + p.length, 0);
  }

  /** Whether this page holds these very items and cursor (so the same bytes). */
  holds(items: readonly Buffer[], nextCursor: string | number | null): boolean {
    if (items.length !== this.items.length || nextCursor !== this.nextCursor) return false;
    for (let i = 0; i < items.length; i++) if (items[i] !== this.items[i]) return false;
    return true;
  }

  /** The body compressed (as every JSON answer is: common/http/compression/json-compression), once; null if it failed. */
  body(encoding: Exclude<Encoding, 'identity'>): Promise<Buffer | null> {
    let made = this.encoded.get(encoding);
    if (!made) {
      const whole = Buffer.concat(this.parts as Buffer[], this.length);
      made = new Promise((resolve) => compressBody(encoding, whole, (err, out) => resolve(err ? null : out)));
      this.encoded.set(encoding, made);
    }
    return made;
  }
}

/** Pages kept at once: one per query the dashboards ask (all pages of the list, a filter or two). */
const KEPT_PAGES = 32;

export class ListCache {
  private readonly kept = new Map<number, Kept>();
  private readonly pages = new Map<string, ListPage>();

  /** The kept JSON of a monitor when it was made from the same row version, state, stats and muted flag. */
  get(id: number, key: ListingKey): Buffer | null {
    const k = this.kept.get(id);
    return k && sameListing(k, key) ? k.json : null;
  }

  /** The kept JSON of a monitor, or `make()`'s, kept for the next reads. */
  getOrMake(id: number, key: ListingKey, make: () => Buffer): Buffer {
    const kept = this.get(id, key);
    if (kept) return kept;
    const json = make();
    this.kept.set(id, { ...key, json });
    return json;
  }

  /**
   * Drops a monitor's kept JSON: two changes can share a millisecond (and so an updated_at), so a
   * change must not rely on updated_at alone.
   */
  drop(id: number): void {
    this.kept.delete(id);
  }

  /** Bounds the memory of monitors gone or never listed again: past `max` entries, start afresh. */
  trim(max: number): void {
    if (this.kept.size > max) this.kept.clear();
  }

  /**
   * The page for a query (`key`: its limit, cursor and filters) made of these items: the kept one
   * when it holds the same items and cursor, else a new one, kept in its place.
   */
  page(key: string, items: readonly Buffer[], nextCursor: string | number | null): ListPage {
    const kept = this.pages.get(key);
    if (kept?.holds(items, nextCursor)) return kept;
    const page = new ListPage(items, nextCursor);
    this.pages.delete(key);
    if (this.pages.size >= KEPT_PAGES) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, page);
    return page;
  }
}

/**
 * Sends a list page: compressed from the page's kept body when the client takes it and the page is
 * large enough to be worth it (the rule of every JSON answer), else as its pieces. A body set with
 * its Content-Encoding here is left alone by the compression of API answers.
 */
export async function sendListPage(
  res: ServerResponse,
  encoding: Encoding,
  head: boolean,
  page: ListPage,
): Promise<void> {
  const body = encoding === 'identity' || head || page.length < COMPRESS_FROM ? null : await page.body(encoding);
  if (body === null) return sendJsonParts(res, page.parts);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** Whether a kept list answer was made from the same row version, live state, stats and muted flag. */
function sameListing(a: ListingKey, b: ListingKey): boolean {
  return a.updatedAt === b.updatedAt && a.state === b.state && a.stats === b.stats && a.muted === b.muted;
}
