import {
  atomFeed,
  duration,
  FeedEntry,
  feedOrder,
  incidentEntry,
  maintenanceEntry,
  rfc822,
  rssFeed,
  tagUri,
  xmlText,
} from './feed-xml';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const entry = (id: string, published: number): FeedEntry => ({
  id,
  title: id,
  text: id,
  link: 'https://s.example/status/x',
  published,
  updated: published,
});

describe('feed XML', () => {
  it.each([
    [30_000, '1 min'],
    [12 * 60_000, '12 min'],
    [75 * 60_000, '1 h 15 min'],
    [2 * 3_600_000, '2 h'],
    [50 * 3_600_000, '2 d 2 h'],
    [72 * 3_600_000, '3 d'],
  ])('says %p ms as %s', (ms, words) => {
    expect(duration(ms)).toBe(words);
  });

  it.each([
    ['a & b', 'a &#38; b'],
    ['<x y="1">', '&#60;x y=&#34;1&#34;&#62;'],
    ['bell\u0007 and nul\u0000 go', 'bell and nul go'],
    ['tab\tand\nline stay', 'tab\tand\nline stay'],
    ['lone \ud800 surrogate', 'lone  surrogate'],
    ['\ufffe', ''],
    ['emoji 😀 stays', 'emoji 😀 stays'],
  ])('makes %j safe XML text: %j', (raw, safe) => {
    expect(xmlText(raw)).toBe(safe);
  });

  it('mints tag URIs from the public host and the day the thing began', () => {
    expect(tagUri('https://status.example.com:8443/base', T, 'incident-7')).toBe(
      'tag:status.example.com,2026-11-01:incident-7',
    );
  });

  it('gives each occurrence of a maintenance window its own entry, at its start', () => {
    const w = {
      title: 'NAS disks',
      description: 'Swapping two disks.',
      state: 'scheduled' as const,
      starts_at: T,
      ends_at: T + 3_600_000,
    };
    const a = maintenanceEntry(w, 'https://s.example');
    expect(a).toMatchObject({
      title: 'Planned maintenance: NAS disks',
      text: 'NAS disks, from 2026-11-01 12:00 UTC to 2026-11-01 13:00 UTC. Swapping two disks.',
      link: 'https://s.example/status',
      published: T,
    });
    expect(a.id).toMatch(/^tag:s\.example,2026-11-01:maintenance-[0-9a-f]{12}-\d+$/);
    expect(maintenanceEntry({ ...w, starts_at: T + 7 * 86_400_000 }, 'https://s.example').id).not.toBe(a.id);
    expect(
      maintenanceEntry({ ...w, state: 'active', ends_at: null, description: null }, 'https://s.example'),
    ).toMatchObject({
      title: 'Maintenance in progress: NAS disks',
      text: 'NAS disks, from 2026-11-01 12:00 UTC until it is over.',
    });
  });

  it('writes RFC 822 dates in GMT', () => {
    expect(rfc822(T)).toBe('Sun, 01 Nov 2026 12:00:00 GMT');
  });

  it('orders entries newest first and keeps 50', () => {
    const many = Array.from({ length: 60 }, (_, i) => entry(`e${i}`, T + i * 1000));
    const out = feedOrder(many);
    expect(out).toHaveLength(50);
    expect(out[0].id).toBe('e59');
    expect(out[49].id).toBe('e10');
  });

  it.each([
    [null, 'Web is down', 'Web has been down since 2026-11-01 12:00 UTC.', T],
    [
      T + 90 * 60_000,
      'Web was down for 1 h 30 min',
      'Web was down from 2026-11-01 12:00 UTC to 2026-11-01 13:30 UTC (1 h 30 min).',
      T + 90 * 60_000,
    ],
  ])('words an incident that ended at %p', (ended, title, text, updated) => {
    const e = incidentEntry(
      { id: 3, name: 'Web', page: '/status/web', started_at: T, ended_at: ended },
      'https://s.example',
    );
    expect(e).toEqual({
      id: 'tag:s.example,2026-11-01:incident-3',
      title,
      text,
      link: 'https://s.example/status/web',
      published: T,
      updated,
    });
  });

  it('writes a feed without entries with its required elements', () => {
    const head = { title: 'Lab & co', description: '', base: 'https://s.example', updated: T };
    const atom = atomFeed(head, []);
    expect(atom).toContain('<title>Lab &#38; co</title>');
    expect(atom).toContain('<updated>2026-11-01T12:00:00.000Z</updated>');
    expect(atom).not.toContain('<subtitle>');
    const rss = rssFeed(head, []);
    expect(rss).toContain('<description>Incidents of Lab &#38; co</description>');
    expect(rss).toContain('<lastBuildDate>Sun, 01 Nov 2026 12:00:00 GMT</lastBuildDate>');
  });
});
