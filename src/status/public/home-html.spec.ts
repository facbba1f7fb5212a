import { defaultPageSettings, Layout, PageSettings } from '../settings/look';
import { Tallies, type Tally } from './bars';
import { BarMemo } from './fragments';
import { HomeModel, homeHtml, renderHomeWhole, RowMemo } from './home-html';
import { homeView, PageContext } from './page-view';
import { planRange } from './periods';
import { buildPublicStatus, ServiceInput } from './public-model';

const NOW = Date.UTC(2026, 10, 18, 12);
const DAY = 86_400_000;

const service = (key: number, over: Partial<ServiceInput> = {}): ServiceInput => ({
  key,
  name: `Service ${key}`,
  group: key <= 2 ? null : key % 2 ? 'Odd' : 'Even',
  sort: key,
  watchedFrom: NOW - 400 * DAY,
  status: 'up',
  horizonMs: 70_000,
  ...over,
});
const SERVICES = [
  service(1),
  service(2, { watchedFrom: NOW - 5 * DAY }),
  service(3, { status: 'down', affectedBy: 'Router' }),
  service(4, { locations: [{ name: 'vps-fra', typical_ms: 88 }] }),
  service(5, { status: 'paused' }),
];
const tally = (down = 0, lat = 100): Tally => ({
  up_ms: DAY - down,
  down_ms: down,
  maint_ms: 0,
  lat_n: lat === 0 ? 0 : 10,
  lat_sum: lat * 10,
});
const fromUp = (_k: number, _i: number, t: Tally) => t;

interface Page {
  settings?: Partial<PageSettings>;
  services?: ServiceInput[];
  change?: (key: number, i: number, t: Tally) => Tally;
  range?: '90d' | '24h';
}

/** The model and home view of one build (kept bars from `bars` when given), as the service makes them. */
function page(p: Page, bars: BarMemo | null = null): { model: ReturnType<typeof buildPublicStatus>; view: HomeModel } {
  const settings = { ...defaultPageSettings(), ...p.settings };
  const plan = planRange(p.range ?? '90d', NOW, 60);
  const services = p.services ?? SERVICES;
  const change = p.change ?? fromUp;
  const tallies = new Map(
    services.map((s) => [s.key, Tallies.of(plan.periods.map((_, i) => change(s.key, i, tally(0))))]),
  );
  const reuse = bars?.round(plan.range, plan.periods);
  const model = buildPublicStatus({
    settings,
    services,
    tallies,
    incidents: [{ key: 3, started_at: NOW - 3_600_000, ended_at: null }],
    maintenance: [
      {
        title: 'Disk swap',
        description: p.settings?.description ?? '**New** disks',
        state: 'active',
        starts_at: NOW - 60_000,
        ends_at: NOW + 3_600_000,
        monitors: [4],
      },
    ],
    plan,
    now: NOW,
    tzMin: 60,
    reuse,
  });
  reuse?.done();
  const ctx: PageContext = {
    settings,
    assets: { css: '/c', js: '/j', theme: '/t', fonts: ['/f'], icon: '/i', appleIcon: '/a' },
    logo: null,
    preview: false,
    tzMin: 60,
    now: NOW,
  };
  const subscribe = settings.subscribers ? { siteKey: 'site-key', preview: false, script: '/turnstile.js' } : null;
  return { model, view: { ...homeView(model, ctx), subscribe } };
}

/** The page from kept rows, with the number of rows rendered for it. */
function kept(memo: RowMemo, p: Page, bars: BarMemo | null = null): { html: string; rendered: number } {
  const { model, view } = page(p, bars);
  const round = memo.round(p.range ?? '90d');
  const html = Buffer.concat(homeHtml(model, view, view.html.layout as Layout, round)).toString('utf8');
  round.done();
  return { html, rendered: round.rendered };
}

const whole = (p: Page) => {
  const { view } = page(p);
  return renderHomeWhole(view.html.layout as Layout, view);
};

describe('homeHtml: the page from kept rows is the page Handlebars renders whole, to the byte', () => {
  const layouts = ['classic', 'horizon', 'ledger'] as const;
  it.each(
    layouts.flatMap((layout) => [
      [layout, {}],
      [layout, { show_uptime: false, show_response: false }],
      [layout, { show_uptime: true, show_response: false, fold_groups: true }],
      [layout, { show_uptime: false, show_response: true, bar_style: 'share' as const, show_locations: true }],
      [layout, { subscribers: true, show_summary: false }],
    ]),
  )('%s with %j', (layout, over) => {
    const p: Page = {
      settings: { layout, ...over },
      change: (k, i, t) => (k === 3 && i > 85 ? tally(4 * 3_600_000, 300) : k === 5 && i === 80 ? tally(0, 0) : t),
    };
    const html = kept(new RowMemo(), p).html;
    expect(html).toBe(whole(p));
    expect(html).toContain('Service 4');
  });

  it.each([
    'quote " and \\ backslash',
    '<\u0000bars>',
    '<\u0000rows 0123456789abcdef>',
    'NUL \u0000 and \u2028 line separator',
    'emoji 🛰️ and ünïcode',
    '</li><script>x</script>',
    '{{rows}} {{{rows}}}',
  ])('with hostile names and sections such as %j', (name) => {
    for (const layout of layouts) {
      const services = [service(1, { name }), service(3, { name: `${name} 3`, group: name }), service(4)];
      const p: Page = { settings: { layout, fold_groups: true, description: name }, services };
      expect(kept(new RowMemo(), p).html).toBe(whole(p));
    }
  });

  it('an empty page has no rows to place', () => {
    const p: Page = { services: [] };
    expect(kept(new RowMemo(), p).html).toBe(whole(p));
  });
});

describe('RowMemo: a row is reused only while it would be rendered the same', () => {
  it('renders no row again for the same page, and the same bytes', () => {
    const memo = new RowMemo();
    const first = kept(memo, {});
    expect(first.rendered).toBe(SERVICES.length);
    const again = kept(memo, {});
    expect(again).toEqual({ html: first.html, rendered: 0 });
  });

  it.each<[string, Page, number]>([
    ['a status changes', { services: SERVICES.map((s) => (s.key === 1 ? { ...s, status: 'down' } : s)) }, 1],
    ['a service is renamed', { services: SERVICES.map((s) => (s.key === 2 ? { ...s, name: 'New name' } : s)) }, 1],
    ['the page hides uptime', { settings: { show_uptime: false } }, SERVICES.length],
    ['another layout', { settings: { layout: 'ledger' } }, SERVICES.length],
    // A bar with downtime changes its strip's words (the row's label) and its own markup.
    ['a bar gets downtime', { change: (k, i, t) => (k === 4 && i === 89 ? tally(60_000) : t) }, 1],
    // Only a bar's latency (not shown in its markup, nor in the median): the row is the same, its strip is written anew.
    ['a latency moves', { change: (k, i, t) => (k === 4 && i === 89 ? tally(0, 250) : t) }, 0],
  ])('%s: the rows it changes are rendered again, and the page is a whole render', (_name, p, rendered) => {
    const memo = new RowMemo();
    const bars = new BarMemo();
    kept(memo, {}, bars);
    const after = kept(memo, p, bars);
    expect(after.html).toBe(whole(p));
    expect(after.rendered).toBe(rendered);
  });

  it('keeps the rows of each range apart', () => {
    const memo = new RowMemo();
    kept(memo, {});
    expect(kept(memo, { range: '24h' }).rendered).toBe(SERVICES.length);
    expect(kept(memo, {}).rendered).toBe(0);
  });
});
