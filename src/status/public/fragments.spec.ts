import { defaultPageSettings } from '../settings/look';
import { Tallies, type Tally } from './bars';
import { BarMemo, barsJson, publicStatusJson, stripHtml } from './fragments';
import { barsHtml } from './page-view';
import { planRange } from './periods';
import { buildPublicStatus, PublicBar, ServiceInput } from './public-model';

const NOW = Date.UTC(2026, 10, 18, 12);
const DAY = 86_400_000;

const service = (key: number, over: Partial<ServiceInput> = {}): ServiceInput => ({
  key,
  name: `Service ${key}`,
  group: key % 2 ? 'Odd' : null,
  sort: key,
  watchedFrom: NOW - 400 * DAY,
  status: 'up',
  horizonMs: 70_000,
  ...over,
});
const tally = (down = 0, lat = 100): Tally => ({
  up_ms: DAY - down,
  down_ms: down,
  maint_ms: 0,
  lat_n: 10,
  lat_sum: lat * 10,
});

/** A build of 30d over three services with `change` applied to the tallies; with a memo, its round. */
function build(
  memo: BarMemo | null,
  change: (key: number, i: number, t: Tally) => Tally = (_k, _i, t) => t,
  opts: { now?: number; tzMin?: number; services?: ServiceInput[] } = {},
) {
  const now = opts.now ?? NOW;
  const tzMin = opts.tzMin ?? 0;
  const plan = planRange('30d', now, tzMin);
  const services = opts.services ?? [service(1), service(2), service(3)];
  const tallies = new Map(
    services.map((s) => [s.key, Tallies.of(plan.periods.map((_, i) => change(s.key, i, tally(0))))]),
  );
  const reuse = memo?.round('30d', plan.periods);
  const model = buildPublicStatus({
    settings: defaultPageSettings(),
    services,
    tallies,
    incidents: [],
    plan,
    now,
    tzMin,
    reuse,
  });
  reuse?.done();
  return model;
}

const strips = (m: ReturnType<typeof build>) => [
  ...m.groups.map((g) => g.bars),
  ...m.groups.flatMap((g) => g.services.map((s) => s.bars)),
];

describe('BarMemo: a bar is reused only while it would be made the same', () => {
  it('reuses every strip of a build whose inputs are all the same: the same arrays', () => {
    const memo = new BarMemo();
    const a = build(memo);
    const b = build(memo);
    expect(strips(b).every((bars, i) => bars === strips(a)[i])).toBe(true);
    expect(b).toEqual(a);
  });

  it.each([
    ['a check landing in a bar', (k: number, i: number, t: Tally) => (k === 2 && i === 29 ? tally(60_000) : t)],
    ['a latency moving in a bar', (k: number, i: number, t: Tally) => (k === 2 && i === 10 ? tally(0, 250) : t)],
  ])('%s: that bar is made anew, and the strip and its section with it; the others are kept', (_name, change) => {
    const memo = new BarMemo();
    const before = build(memo);
    const after = build(memo, change);
    const fresh = build(null, change);
    expect(after).toEqual(fresh);
    const s2 = (m: typeof after) => m.groups.flatMap((g) => g.services).find((s) => s.name === 'Service 2')!;
    const s1 = (m: typeof after) => m.groups.flatMap((g) => g.services).find((s) => s.name === 'Service 1')!;
    expect(s2(after).bars).not.toBe(s2(before).bars);
    expect(s2(after).bars.filter((b, i) => b !== s2(before).bars[i])).toHaveLength(1);
    expect(s1(after).bars).toBe(s1(before).bars);
  });

  it('keeps a bar whose tally moved but which shows the same (up time added to a bar at 100 %)', () => {
    const memo = new BarMemo();
    const before = build(memo);
    const after = build(memo, (_k, i, t) => (i === 29 ? { ...t, up_ms: t.up_ms + 5_000 } : t));
    expect(strips(after).every((bars, i) => bars === strips(before)[i])).toBe(true);
  });

  it.each([
    ['a day rolling over', { now: NOW + DAY }],
    // 13:00 ahead of UTC at noon: another local day, so other periods.
    ['another time zone', { tzMin: 780 }],
  ])('%s: nothing of the last build is reused, and the answer is a fresh build', (_name, opts) => {
    const memo = new BarMemo();
    const before = build(memo);
    const after = build(memo, undefined, opts);
    expect(after).toEqual(build(null, undefined, opts));
    for (const [i, bars] of strips(after).entries()) {
      for (const b of bars) expect(strips(before)[i]).not.toContain(b);
    }
  });

  it('a service watched from a later day: its bars before are not_watched, not the kept ones', () => {
    const memo = new BarMemo();
    build(memo);
    const later = [service(1), service(2, { watchedFrom: NOW - 5 * DAY }), service(3)];
    const after = build(memo, undefined, { services: later });
    expect(after).toEqual(build(null, undefined, { services: later }));
    const s2 = after.groups.flatMap((g) => g.services).find((s) => s.name === 'Service 2')!;
    expect(s2.bars[0].state).toBe('not_watched');
  });

  it('drops the strips of services no longer on the page', () => {
    const memo = new BarMemo();
    const first = build(memo);
    build(memo, undefined, { services: [service(1)] });
    const back = build(memo);
    const s3 = (m: typeof back) => m.groups.flatMap((g) => g.services).find((s) => s.name === 'Service 3')!;
    expect(s3(back).bars).not.toBe(s3(first).bars);
    expect(back).toEqual(first);
  });
});

describe('the text written from kept bars', () => {
  const hostile = [
    'plain',
    'quote " and \\ backslash',
    '"bars":"\u0000"',
    'NUL \u0000 and \u2028 line separator',
    'emoji 🛰️ and ünïcode',
    '</script><i>',
  ];

  it.each(hostile)('publicStatusJson is JSON.stringify to the byte, with names such as %j', (name) => {
    const memo = new BarMemo();
    build(memo);
    const services = [service(1, { name }), service(2, { name: `${name} 2`, group: name }), service(3)];
    const m = build(memo, (k, i, t) => (k === 3 && i % 7 === 0 ? tally(90_000, 300) : t), { services });
    const model = { ...m, title: name, description: name };
    expect(Buffer.concat(publicStatusJson(model)).toString('utf8')).toBe(JSON.stringify(model));
  });

  it('barsJson keeps the bytes of a strip: the same buffer for the same array', () => {
    const m = build(new BarMemo());
    const bars = m.groups[0].services[0].bars;
    expect(barsJson(bars)).toBe(barsJson(bars));
    expect(barsJson(bars).toString()).toBe(JSON.stringify(bars));
    expect(barsJson([...bars]).toString()).toBe(JSON.stringify(bars));
  });

  it.each([
    ['worst', true],
    ['worst', false],
    ['share', true],
    ['share', false],
  ] as const)('stripHtml keeps the markup of each bar style apart (%s, show_uptime %s)', (bar_style, show_uptime) => {
    const bars: PublicBar[] = build(new BarMemo(), (_k, i, t) => (i === 3 ? tally(3_600_000) : t)).groups[0].bars;
    const html = barsHtml(bars, { bar_style, show_uptime });
    const other = barsHtml(bars, { bar_style: bar_style === 'worst' ? 'share' : 'worst', show_uptime: !show_uptime });
    expect(html).not.toBe(other);
    expect(barsHtml(bars, { bar_style, show_uptime })).toBe(html);
    expect(stripHtml(bars, `${bar_style}|${show_uptime}`, () => 'never called')).toBe(html);
  });
});
