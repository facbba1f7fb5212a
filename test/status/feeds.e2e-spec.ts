/**
 * The status page's feeds on the real app: Atom 1.0 and RSS 2.0 of the public incidents, read by
 * a real XML parser (Python's expat, as scripts/test-deps.sh installs python3) and held to the
 * formats' rules: RFC 4287's required elements, unique permanent ids, RFC 3339 dates; RSS 2.0's
 * channel and item elements, RFC 822 dates, unique guids. Private monitors never appear; hostile
 * Accept headers still get the feed; the page's head links both.
 */
import { spawnSync } from 'node:child_process';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { seedStatusPage, SeedService } from './seed';

const SERVICES: SeedService[] = [
  {
    name: `Tom & Jerry's <"shop">`,
    privateName: 'zqx-private-71',
    group: 'Web',
    status: 'down',
    downDays: { 0: 12, 4: 30 },
  },
  { name: 'Mail', group: 'Web', downDays: { 2: 75, 9: 5 } },
  // Many incidents: the feeds stop at 50.
  { name: 'Flaky', group: 'Lab', downDays: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [i + 1, 3])) },
];

/** Parses with expat and returns the tree as JSON: [tag, attributes, text, children]. */
const PARSE = `
import sys, json, xml.etree.ElementTree as ET
def walk(e): return [e.tag, e.attrib, (e.text or '').strip(), [walk(c) for c in e]]
print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))
`;
type Node = [string, Record<string, string>, string, Node[]];
const ATOM = '{http://www.w3.org/2005/Atom}';

function parse(xml: string): Node {
  const out = spawnSync('python3', ['-c', PARSE], { input: xml, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`not well-formed XML: ${out.stderr}`);
  return JSON.parse(out.stdout) as Node;
}
const kids = (n: Node, tag: string) => n[3].filter((c) => c[0] === tag);
const one = (n: Node, tag: string) => {
  const found = kids(n, tag);
  expect([tag, found.length]).toEqual([tag, 1]);
  return found[0];
};
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startApp();
  const { cookie } = await createOwner(t);
  admin = bearer(await createKey(t, cookie, 'admin'));
  await seedStatusPage(t, admin, SERVICES, 120);
});
afterAll(() => t.close());

describe('status feeds', () => {
  it('Atom: a valid RFC 4287 feed of the 50 newest public incidents, newest first', async () => {
    const res = await t.http.get('/status/feed.atom').expect(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const feed = parse(res.text);
    expect(feed[0]).toBe(`${ATOM}feed`);
    for (const tag of ['id', 'title', 'updated', 'author']) one(feed, `${ATOM}${tag}`);
    expect(one(feed, `${ATOM}id`)[2]).toBe('http://farsight.test/status');
    expect(one(feed, `${ATOM}updated`)[2]).toMatch(RFC3339);
    expect(kids(feed, `${ATOM}link`).map((l) => [l[1].rel, l[1].href])).toEqual([
      ['self', 'http://farsight.test/status/feed.atom'],
      ['alternate', 'http://farsight.test/status'],
    ]);
    const entries = kids(feed, `${ATOM}entry`);
    expect(entries).toHaveLength(50);
    const ids = entries.map((e) => one(e, `${ATOM}id`)[2]);
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^tag:farsight\.test,\d{4}-\d\d-\d\d:incident-\d+$/);
    const published = entries.map((e) => Date.parse(one(e, `${ATOM}published`)[2]));
    expect([...published].sort((a, b) => b - a)).toEqual(published);
    for (const e of entries) {
      one(e, `${ATOM}title`);
      expect(one(e, `${ATOM}updated`)[2]).toMatch(RFC3339);
      expect(one(e, `${ATOM}link`)[1].href).toMatch(/^http:\/\/farsight\.test\/status\/[a-z0-9-]+$/);
    }
    // The newest: the open incident, escaped name intact after parsing; the feed updated at the newest change.
    expect(one(entries[0], `${ATOM}title`)[2]).toBe(`Tom & Jerry's <"shop"> is down`);
    expect(res.text).toContain('Tom &#38; Jerry&#39;s &#60;&#34;shop&#34;&#62; is down');
    const newest = Math.max(...entries.map((e) => Date.parse(one(e, `${ATOM}updated`)[2])));
    expect(Date.parse(one(feed, `${ATOM}updated`)[2])).toBe(newest);
    expect(res.text).not.toContain('zqx-private');
  });

  it('RSS: a valid RSS 2.0 channel with the same entries', async () => {
    const res = await t.http.get('/status/feed.rss').expect(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const rss = parse(res.text);
    expect([rss[0], rss[1].version]).toEqual(['rss', '2.0']);
    const channel = one(rss, 'channel');
    for (const tag of ['title', 'link', 'description', 'lastBuildDate']) one(channel, tag);
    expect(one(channel, 'lastBuildDate')[2]).toMatch(RFC822);
    expect(one(channel, `${ATOM}link`)[1]).toMatchObject({ rel: 'self', href: 'http://farsight.test/status/feed.rss' });
    const items = kids(channel, 'item');
    expect(items).toHaveLength(50);
    const guids = items.map((i) => one(i, 'guid'));
    expect(new Set(guids.map((g) => g[2])).size).toBe(50);
    for (const g of guids) expect(g[1].isPermaLink).toBe('false');
    for (const i of items) {
      expect(one(i, 'pubDate')[2]).toMatch(RFC822);
      expect(Number.isNaN(Date.parse(one(i, 'pubDate')[2]))).toBe(false);
      expect(one(i, 'link')[2]).toMatch(/^http:\/\/farsight\.test\/status\//);
    }
    const atom = parse((await t.http.get('/status/feed.atom')).text);
    expect(guids.map((g) => g[2])).toEqual(kids(atom, `${ATOM}entry`).map((e) => one(e, `${ATOM}id`)[2]));
    for (const i of items.slice(1)) expect(one(i, 'title')[2]).toMatch(/ was down for \d+ (min|h|d)/);
  });

  it.each([
    ['text/html'],
    ['application/json'],
    ['*/*;q=0'],
    ['application/atom+xml;q=abc, */*;level="\\"'],
    ['x'.repeat(6000)],
  ])('answers the feed whatever the Accept header says: %s', async (accept) => {
    const res = await t.http.get('/status/feed.atom').set('Accept', accept.slice(0, 60)).expect(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    await t.http.get('/status/feed.rss').set('Accept', accept).expect(200);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.http.get('/status/feed.rss').expect(200);
    await t.http
      .get('/status/feed.rss')
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });

  it('is linked from the head of the status page', async () => {
    const html = (await t.http.get('/status').expect(200)).text;
    expect(html).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Incidents (Atom)" href="/status/feed.atom">',
    );
    expect(html).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Incidents (RSS)" href="/status/feed.rss">',
    );
  });

  it('is not found while the status page is not published', async () => {
    await t.http.put('/api/v1/status-page').set(admin).send({ enabled: false }).expect(200);
    t.clock.advance(61_000);
    const res = await t.http.get('/status/feed.atom').expect(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
