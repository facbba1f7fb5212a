import { defaultPageSettings } from '../settings/look';
import { barsHtml, chrome, homeView, incidentView, PageContext, shareStep, strip } from './page-view';
import type { PublicBar, PublicStatus } from './public-model';

const NOW = Date.UTC(2026, 10, 18, 12);
const ctx = (over: Partial<PageContext> = {}): PageContext => ({
  settings: defaultPageSettings(),
  assets: {
    css: '/status.css?v=1',
    js: '/status.js?v=1',
    theme: '/status/theme.css?a=564be6',
    fonts: ['/status/fonts/geist-400.woff2?v=1'],
    icon: '/i',
    appleIcon: '/a',
  },
  logo: null,
  preview: false,
  tzMin: 60,
  now: NOW,
  ...over,
});
const bar = (state: PublicBar['state'], down_ms = 0, uptime: number | null = 100, maintenance_ms = 0): PublicBar => ({
  period: '2026-11-18',
  label: 'Wed 18 Nov 2026',
  state,
  uptime,
  down_ms,
  maintenance_ms,
  avg_ms: 50,
});

describe('shareStep', () => {
  it.each([
    [100, 0, 0],
    [null, 0, 0],
    [99.9999, 1, 1],
    [99.5, 1, 1],
    [99, 1, 2],
    [96, 1, 2],
    [92, 1, 3],
    [80, 1, 4],
    [60, 1, 5],
    [30, 1, 6],
    [1, 1, 7],
    [0, 1, 8],
  ])('uptime %j with downtime %j is step %i', (uptime, down, step) => {
    expect(shareStep({ uptime, down_ms: down })).toBe(step);
  });
});

describe('barsHtml', () => {
  it('gives words only to bars with downtime, escaped, and steps only in the share style', () => {
    const bars = [bar('ok'), bar('warn', 120_000, 99.86), bar('no_data', 0, null)];
    expect(barsHtml(bars, { bar_style: 'worst', show_uptime: true })).toBe(
      '<i class="b ok"></i><i class="b warn" title="Wed 18 Nov 2026: 99.86%, down 2 min"></i><i class="b no_data"></i>',
    );
    expect(barsHtml(bars, { bar_style: 'share', show_uptime: false })).toBe(
      '<i class="b ok d0"></i><i class="b warn d1" title="Wed 18 Nov 2026: some downtime, down 2 min"></i><i class="b no_data d0"></i>',
    );
    expect(barsHtml([{ ...bar('bad', 1, 50), label: '<b>&"' }], { bar_style: 'worst', show_uptime: true })).toContain(
      'title="&lt;b&gt;&amp;&quot;: 50.00%',
    );
  });
});

describe('bars with maintenance (docs/maintenance.md, "Uptime")', () => {
  const H = 3_600_000;
  it.each<[string, PublicBar, boolean, string]>([
    [
      'all in maintenance: its time, no uptime',
      bar('maintenance', 0, null, 24 * H),
      true,
      '<i class="b maintenance" title="Wed 18 Nov 2026: maintenance 1 day"></i>',
    ],
    [
      'mostly maintenance: uptime of the time outside it',
      bar('maintenance', 0, 100, 18 * H),
      true,
      '<i class="b maintenance" title="Wed 18 Nov 2026: maintenance 18 h, uptime outside it 100%"></i>',
    ],
    [
      'mostly maintenance with downtime outside it, uptime hidden',
      bar('maintenance', 60_000, 99.9, 18 * H),
      false,
      '<i class="b maintenance" title="Wed 18 Nov 2026: maintenance 18 h, down 1 min"></i>',
    ],
    [
      'some maintenance on a good day',
      bar('ok', 0, 100, 2 * H),
      true,
      '<i class="b ok" title="Wed 18 Nov 2026: 100%, maintenance 2 h"></i>',
    ],
  ])('%s', (_name, b, showUptime, html) => {
    expect(barsHtml([b], { bar_style: 'worst', show_uptime: showUptime })).toBe(html);
  });

  it('a maintenance bar keeps its colour in the share style (no downtime steps)', () => {
    expect(barsHtml([bar('maintenance', 0, null, H)], { bar_style: 'share', show_uptime: true })).toBe(
      '<i class="b maintenance d0" title="Wed 18 Nov 2026: maintenance 1 h"></i>',
    );
  });

  it("counts maintenance bars in the strip's words", () => {
    const v = strip(
      [bar('ok'), bar('maintenance', 0, null, H)],
      '90d',
      '90 days ago',
      100,
      0,
      defaultPageSettings(),
      'Web',
      0,
    );
    expect(v.label).toBe('Web, the last 90 days in days: 1 no downtime, 1 mostly maintenance; uptime 100%.');
  });
});

describe('strip', () => {
  const s = defaultPageSettings();
  it('says in words what the bars show', () => {
    const v = strip(
      [bar('ok'), bar('ok'), bar('bad', 5000, 90), bar('not_watched', 0, null)],
      '90d',
      '90 days ago',
      97.5,
      5000,
      s,
      'Web',
      0,
    );
    expect(v.label).toBe(
      'Web, the last 90 days in days: 2 no downtime, 1 major downtime, 1 not watched yet; uptime 97.50%.',
    );
    expect(v).toMatchObject({
      first: '2026-11-18',
      unit: 'day',
      from: '90 days ago',
      to: 'Today',
      uptime: '97.50%',
      since: null,
    });
  });

  it('names the start of watching as a moment in the hour ranges', () => {
    const bars: PublicBar[] = [
      { ...bar('not_watched', 0, null), period: '2026-11-18T09:00:00.000Z' },
      { ...bar('ok'), period: '2026-11-18T10:00:00.000Z' },
    ];
    expect(strip(bars, '24h', 'Since 18 Nov 2026, 10:20', 100, 0, s, 'Web', 60).since).toEqual({
      iso: '2026-11-18T10:00:00.000Z',
      text: '18 Nov 2026, 11:00',
      f: 'dt',
    });
    expect(strip(bars, '24h', 'x', 100, 0, s, 'Web', 60).unit).toBe('hour');
  });

  it('leaves the uptime out when the page hides it', () => {
    expect(strip([bar('ok')], '12mo', 'x', 100, 0, { ...s, show_uptime: false }, 'Web', 0)).toMatchObject({
      uptime: null,
      unit: 'month',
      to: 'This month',
    });
  });
});

describe('incidentView', () => {
  it('writes an end on the same local day as a time only', () => {
    const v = incidentView(
      {
        name: 'Web',
        page: '/status/web',
        started_at: '2026-11-17T22:30:00.000Z',
        ended_at: '2026-11-17T22:50:00.000Z',
        duration_ms: 1_200_000,
      },
      ctx(),
    );
    expect(v).toMatchObject({
      name: 'Web',
      href: '/status/web',
      started: { text: '17 Nov 2026, 23:30', f: 'dt' },
      ended: { text: '23:50', f: 't' },
      duration: '20 min',
      open: false,
    });
  });

  it('writes the whole moment when the end is on another local day (UTC+1 midnight)', () => {
    const v = incidentView(
      {
        name: 'Web',
        page: '/status/web',
        started_at: '2026-11-17T22:30:00.000Z',
        ended_at: '2026-11-17T23:10:00.000Z',
        duration_ms: 2_400_000,
      },
      ctx(),
    );
    expect(v.ended).toEqual({ iso: '2026-11-17T23:10:00.000Z', text: '18 Nov 2026, 00:10', f: 'dt' });
  });

  it('leads nowhere in a preview', () => {
    expect(
      incidentView(
        { name: 'Web', page: '/status/web', started_at: '2026-11-17T22:30:00.000Z', ended_at: null, duration_ms: 1 },
        ctx({ preview: true }),
      ).href,
    ).toBeNull();
  });
});

describe('chrome and home', () => {
  const model: PublicStatus = {
    title: 'Acme',
    description: '',
    overall: 'partial_outage',
    updated_at: new Date(NOW).toISOString(),
    maintenance: [],
    range: '90d',
    ranges: ['24h', '90d'],
    summary: {
      overall: 'partial_outage',
      uptime: 99.5,
      incidents: 2,
      longest_ms: 3_600_000,
      typical_ms: 120,
      services: 2,
    },
    groups: [],
    incidents: { open: [], recent: [] },
  };

  it('marks a preview inert: no links, no refresh', () => {
    const v = chrome(
      ctx({
        preview: true,
        settings: {
          ...defaultPageSettings(),
          auto_refresh: true,
          website: { label: 'Site', url: 'https://a.example' },
        },
      }),
      'T',
    );
    expect(v).toMatchObject({
      preview: true,
      homeHref: null,
      historyHref: null,
      website: { label: 'Site', href: null },
      html: { refresh: false },
    });
  });

  it('follows the theme for the colour scheme and preloads the first font only', () => {
    expect(chrome(ctx(), 'T')).toMatchObject({
      colorScheme: 'light dark',
      fontPreload: '/status/fonts/geist-400.woff2?v=1',
      zone: 'UTC+1',
    });
    expect(
      chrome(
        ctx({ settings: { ...defaultPageSettings(), theme: 'dark' }, assets: { ...ctx().assets, fonts: [] } }),
        'T',
      ),
    ).toMatchObject({ colorScheme: 'dark', fontPreload: null });
  });

  it('lists the summary figures the page shows, and tabs for its ranges', () => {
    const v = homeView(
      model,
      ctx({ settings: { ...defaultPageSettings(), ranges: ['24h', '90d'], show_response: false } }),
    );
    expect(v.summary!.map((x) => `${x.label}: ${x.value}`)).toEqual([
      'Uptime: 99.50%',
      'Incidents: 2',
      'Longest incident: 1 h',
    ]);
    expect(v.tabs).toEqual([
      { label: '24 hours', href: '?range=24h', current: false },
      { label: '90 days', href: '?range=90d', current: true },
    ]);
    expect(v.overall).toEqual({ cls: 'bad', icon: 'i-bad', text: 'Partial outage' });
    expect(v.days).toHaveLength(7);
    expect(homeView(model, ctx({ settings: { ...defaultPageSettings(), show_summary: false } })).summary).toBeNull();
  });
});
