/**
 * The status page's feeds (docs/status-page.md, "Feeds"): Atom 1.0 (RFC 4287) and RSS 2.0 of the
 * public incidents, newest first. Pure: the service hands in the entries, already public (public
 * names, page links, times), and the page's title and address.
 *
 * Entries are a list of FeedEntry whatever they tell of, so announced maintenance plugs in as
 * another source of entries (feedOrder sorts and cuts them all together).
 */
import { createHash } from 'node:crypto';
import { toIso } from '../../common/time';

export const FEED_ENTRIES = 50;

export interface FeedEntry {
  /** A permanent, unique id: a tag URI (RFC 4151), also the RSS guid. */
  id: string;
  title: string;
  /** Plain text. */
  text: string;
  /** The page a reader opens for it (absolute). */
  link: string;
  published: number;
  updated: number;
}

export interface FeedHead {
  title: string;
  description: string;
  /** The public URL without a trailing slash. */
  base: string;
  /** When the feed last changed: the newest entry's update, or `now` when it has none. */
  updated: number;
}

export interface PublicIncidentFacts {
  id: number;
  /** The service's public name and its page path (/status/<name>). */
  name: string;
  page: string;
  started_at: number;
  ended_at: number | null;
}

/** Newest first (by when it happened, then by id for a stable order), at most FEED_ENTRIES. */
export function feedOrder(entries: FeedEntry[]): FeedEntry[] {
  return [...entries]
    .sort((a, b) => b.published - a.published || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, FEED_ENTRIES);
}

/** A tag URI (RFC 4151) minted by the page's host on the day the thing it names began. */
export function tagUri(base: string, at: number, specific: string): string {
  const host = new URL(base).hostname;
  return `tag:${host},${toIso(at)!.slice(0, 10)}:${specific}`;
}

export function incidentEntry(i: PublicIncidentFacts, base: string): FeedEntry {
  const started = words(i.started_at);
  const ended = i.ended_at === null ? null : words(i.ended_at);
  return {
    id: tagUri(base, i.started_at, `incident-${i.id}`),
    title: ended ? `${i.name} was down for ${duration(i.ended_at! - i.started_at)}` : `${i.name} is down`,
    text: ended
      ? `${i.name} was down from ${started} to ${ended} (${duration(i.ended_at! - i.started_at)}).`
      : `${i.name} has been down since ${started}.`,
    link: `${base}${i.page}`,
    published: i.started_at,
    updated: i.ended_at ?? i.started_at,
  };
}

/** What the feeds tell of a maintenance window the status page announces or shows as active. */
export interface PublicWindowFacts {
  title: string;
  description: string | null;
  state: 'scheduled' | 'active';
  starts_at: number;
  ends_at: number | null;
}

/**
 * A window's entry, one per occurrence (its id names the start and the title's hash: a weekly
 * window gives a new entry each week, and a changed title a new one). Published when announced is
 * not known, so at its start: a reader lists it by when the work happens.
 */
export function maintenanceEntry(w: PublicWindowFacts, base: string): FeedEntry {
  const key = createHash('sha256').update(w.title).digest('hex').slice(0, 12);
  const when =
    w.ends_at === null
      ? `from ${words(w.starts_at)} until it is over`
      : `from ${words(w.starts_at)} to ${words(w.ends_at)}`;
  return {
    id: tagUri(base, w.starts_at, `maintenance-${key}-${w.starts_at}`),
    title: `${w.state === 'active' ? 'Maintenance in progress' : 'Planned maintenance'}: ${w.title}`,
    text: `${w.title}, ${when}.${w.description ? ` ${w.description}` : ''}`,
    link: `${base}/status`,
    published: w.starts_at,
    updated: w.starts_at,
  };
}

/** "2026-11-01 12:00 UTC" */
function words(at: number): string {
  return `${toIso(at)!.slice(0, 16).replace('T', ' ')} UTC`;
}

export function duration(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h < 48) return m ? `${h} h ${m} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * Text for XML content and attributes: the five markup characters escaped, and the characters
 * XML 1.0 forbids (C0 controls but tab, CR and LF; lone surrogates; U+FFFE, U+FFFF) dropped, so
 * no name can make the feed ill-formed.
 */
export function xmlText(s: string): string {
  return s
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function atomFeed(head: FeedHead, entries: readonly FeedEntry[]): string {
  const x = xmlText;
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${x(`${head.base}/status`)}</id>`,
    `<title>${x(head.title)}</title>`,
    head.description ? `<subtitle>${x(head.description)}</subtitle>` : '',
    `<updated>${toIso(head.updated)}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${x(`${head.base}/status/feed.atom`)}"/>`,
    `<link rel="alternate" type="text/html" href="${x(`${head.base}/status`)}"/>`,
    `<author><name>${x(head.title)}</name></author>`,
    '<generator>Farsight</generator>',
  ];
  for (const e of entries) {
    out.push(
      '<entry>',
      `<id>${x(e.id)}</id>`,
      `<title type="text">${x(e.title)}</title>`,
      `<published>${toIso(e.published)}</published>`,
      `<updated>${toIso(e.updated)}</updated>`,
      `<link rel="alternate" type="text/html" href="${x(e.link)}"/>`,
      `<summary type="text">${x(e.text)}</summary>`,
      '</entry>',
    );
  }
  out.push('</feed>');
  return out.filter((l) => l !== '').join('\n') + '\n';
}

/** RFC 822 dates, as RSS 2.0 wants them ("Sun, 01 Nov 2026 12:00:00 GMT"). */
export function rfc822(at: number): string {
  return new Date(at).toUTCString();
}

export function rssFeed(head: FeedHead, entries: readonly FeedEntry[]): string {
  const x = xmlText;
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    `<title>${x(head.title)}</title>`,
    `<link>${x(`${head.base}/status`)}</link>`,
    `<description>${x(head.description || `Incidents of ${head.title}`)}</description>`,
    `<atom:link rel="self" type="application/rss+xml" href="${x(`${head.base}/status/feed.rss`)}"/>`,
    `<lastBuildDate>${rfc822(head.updated)}</lastBuildDate>`,
    '<generator>Farsight</generator>',
  ];
  for (const e of entries) {
    out.push(
      '<item>',
      `<title>${x(e.title)}</title>`,
      `<link>${x(e.link)}</link>`,
      `<guid isPermaLink="false">${x(e.id)}</guid>`,
      `<pubDate>${rfc822(e.published)}</pubDate>`,
      `<description>${x(e.text)}</description>`,
      '</item>',
    );
  }
  out.push('</channel>', '</rss>');
  return out.join('\n') + '\n';
}
