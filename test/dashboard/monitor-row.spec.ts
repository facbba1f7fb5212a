/** What an overview row says and the HTML it is built from (public/dashboard/overview/monitor-row.js). */
type Point = { avg_ms: number | null; worst: string | null };
type Monitor = {
  id: number;
  name: string;
  target?: string | null;
  state?: object | null;
  stats?: { uptime_24h?: number | null; uptime_30d?: number | null; spark?: Point[] };
};
type Row = {
  esc(v: unknown): string;
  rowFacts(m: Monitor): { status: string; word: string; lat: string; u24: string; u30: string; err: string };
  sparkLabel(points: Point[] | undefined): string;
  sparkPaths(points: Point[] | undefined): string;
  rowHtml(m: Monitor, link: string | null): string;
};
const { esc, rowFacts, rowHtml, sparkLabel, sparkPaths } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../../public/dashboard/overview/monitor-row.js') as Row;

describe('esc', () => {
  it.each([
    ['plain', 'plain'],
    [`<img src=x onerror="a('b')"> & co`, '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co'],
    [42, '42'],
  ])('%p is %p', (v, out) => {
    expect(esc(v)).toBe(out);
  });
});

describe('rowFacts', () => {
  const stats = { uptime_24h: 99.95, uptime_30d: 100 };
  const error = { code: 'timeout', message: 'no answer within 10 s' };
  it.each<[string, object | null, Partial<ReturnType<Row['rowFacts']>>]>([
    [
      'up',
      { status: 'up', latency_ms: 42 },
      { status: 'up', word: 'Up', lat: '42 ms', u24: '99.95%', u30: '100%', err: '' },
    ],
    ['muted', { status: 'up', latency_ms: 42, muted: true }, { word: 'Up · muted' }],
    [
      'in maintenance',
      { status: 'down', maintenance: { window_id: 1, title: 'Swap', ends_at: null } },
      { word: 'Down · maintenance' },
    ],
    [
      'down, with its error',
      { status: 'down', latency_ms: null, error },
      { status: 'down', lat: '–', err: 'no answer within 10 s' },
    ],
    ['up but failing, with the error so far', { status: 'up', failing: 1, error }, { err: 'no answer within 10 s' }],
    [
      'paused: no latency, no error',
      { status: 'paused', latency_ms: 42, failing: 1, error },
      { status: 'paused', lat: '–', err: '' },
    ],
    ['a status it does not know', { status: 'weird' }, { status: 'unknown', word: 'Unknown' }],
    ['no state yet', null, { status: 'unknown', lat: '–' }],
  ])('%s', (_what, state, facts) => {
    expect(rowFacts({ id: 1, name: 'x', state, stats })).toMatchObject(facts);
  });
});

describe('the spark', () => {
  it.each<[Point[] | undefined, string]>([
    [undefined, 'Last 24 hours: no checks'],
    [[{ avg_ms: null, worst: null }], 'Last 24 hours: no checks'],
    [
      [
        { avg_ms: 10, worst: 'up' },
        { avg_ms: 30, worst: 'down' },
      ],
      'Last 24 hours: 20 ms on average, down in 1 of them',
    ],
  ])('%j says "%s"', (points, label) => {
    expect(sparkLabel(points)).toBe(label);
  });

  it('draws one path per colour, the latest hour on the right, as tall as its latency', () => {
    const paths = sparkPaths([
      { avg_ms: 10, worst: 'up' },
      { avg_ms: 20, worst: 'slow' },
      { avg_ms: null, worst: null },
    ]);
    expect(paths.match(/class="b-[a-z]+"/g)).toEqual(['class="b-up"', 'class="b-slow"', 'class="b-none"']);
    // 24 bars of 5 px in 120: the last of three hours starts at 115, the slow one (the tallest) fills the 26 px.
    expect(paths).toContain('M115.0 24h4.0v2');
    expect(paths).toContain('M110.0 0h4.0v26');
  });
});

describe('rowHtml', () => {
  it('keeps markup in a name as text, and links the name when there is a page', () => {
    const html = rowHtml(
      { id: 7, name: '<b>NAS</b>', target: 'https://nas.lan/', state: { status: 'up' } },
      '/monitors/7',
    );
    expect(html).toContain('<a href="/monitors/7">&lt;b&gt;NAS&lt;/b&gt;</a>');
    expect(html).toContain('aria-label="Select &lt;b&gt;NAS&lt;/b&gt;"');
    expect(html).not.toContain('<b>');
  });

  it('names the monitor without a link while it has no page, and hides an empty error', () => {
    const html = rowHtml({ id: 7, name: 'NAS', target: null, state: { status: 'up' } }, null);
    expect(html).toContain('<strong>NAS</strong>');
    expect(html).toContain('<span class="err" hidden></span>');
  });
});
