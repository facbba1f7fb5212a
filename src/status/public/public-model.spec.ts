import { emptyTally, Tallies, Tally } from './bars';
import { defaultPageSettings } from '../settings/look';
import { planRange } from './periods';
import { buildPublicStatus, IncidentInput, orderGroups, ServiceInput } from './public-model';

const NOW = Date.UTC(2026, 10, 18, 12);
const DAY = 86_400_000;
const today = Math.floor(NOW / DAY);

const service = (over: Partial<ServiceInput>): ServiceInput => ({
  key: 1,
  name: 'Web',
  group: null,
  sort: 0,
  watchedFrom: NOW - 400 * DAY,
  status: 'up',
  horizonMs: 70_000,
  ...over,
});
const day = (down: number, lat = 100): Tally => ({
  up_ms: DAY - down,
  down_ms: down,
  maint_ms: 0,
  lat_n: 10,
  lat_sum: lat * 10,
});

function build(
  services: ServiceInput[],
  tallies: Record<number, Record<number, Tally>>,
  incidents: IncidentInput[] = [],
  range: '30d' | '90d' = '30d',
) {
  const plan = planRange(range, NOW, 0);
  return buildPublicStatus({
    settings: { ...defaultPageSettings(), title: 'Acme', group_order: ['Edge'] },
    services,
    // Day bars: each bar sums one local day.
    tallies: new Map(
      Object.entries(tallies).map(([k, v]) => [
        Number(k),
        Tallies.of(plan.periods.map((p) => v[p.from] ?? emptyTally())),
      ]),
    ),
    incidents,
    plan,
    now: NOW,
    tzMin: 0,
  });
}

describe('buildPublicStatus', () => {
  it('answers exactly the spec shape', () => {
    const out = build([service({})], { 1: { [today]: day(0) } });
    expect(Object.keys(out).sort()).toEqual(
      // The spec's keys, plus maintenance (the interface extensions, section 1).
      [
        'description',
        'groups',
        'incidents',
        'maintenance',
        'overall',
        'range',
        'ranges',
        'summary',
        'title',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(out.summary).sort()).toEqual(
      ['incidents', 'longest_ms', 'overall', 'services', 'typical_ms', 'uptime'].sort(),
    );
    expect(Object.keys(out.groups[0]).sort()).toEqual(['bars', 'name', 'services', 'status', 'uptime'].sort());
    expect(Object.keys(out.groups[0].services[0]).sort()).toEqual(
      ['affected_by', 'bars', 'down_ms', 'from', 'name', 'page', 'status', 'typical_ms', 'uptime'].sort(),
    );
    expect(Object.keys(out.groups[0].services[0].bars[0]).sort()).toEqual(
      ['avg_ms', 'down_ms', 'label', 'maintenance_ms', 'period', 'state', 'uptime'].sort(),
    );
    expect(out.updated_at).toBe('2026-11-18T12:00:00.000Z');
  });

  it('sums a service over the range and judges each day', () => {
    const out = build([service({})], {
      1: { [today]: day(0, 80), [today - 1]: day(60_000, 120), [today - 2]: day(DAY / 2), [today - 40]: day(DAY) },
    });
    const s = out.groups[0].services[0];
    expect(s.bars).toHaveLength(30);
    expect(s.bars.slice(-3).map((b) => b.state)).toEqual(['bad', 'warn', 'ok']);
    expect(s.bars[0].state).toBe('no_data');
    expect(s.down_ms).toBe(60_000 + DAY / 2); // the day 40 days ago is outside 30d
    expect(s.bars[29]).toEqual({
      period: '2026-11-18',
      label: 'Wed 18 Nov 2026',
      state: 'ok',
      uptime: 100,
      down_ms: 0,
      maintenance_ms: 0,
      avg_ms: 80,
    });
    expect(s.uptime).toBeCloseTo(((3 * DAY - 60_000 - DAY / 2) / (3 * DAY)) * 100, 2);
    expect(s.from).toBe('30 days ago');
    // Typical: the median of the bars' averages (80, 120, 100).
    expect(s.typical_ms).toBe(100);
  });

  it.each([
    ['an even count: the rounded mean of the middle two', { [today]: day(0, 80), [today - 1]: day(0, 121) }, 101],
    [
      'an average of 0 counts, a bar without checks does not',
      { [today]: day(0, 300), [today - 2]: day(DAY / 2, 0) },
      150,
    ],
    ['one average', { [today - 5]: day(0, 42) }, 42],
    ['no checks at all', {}, null],
  ] as const)("typical_ms, the median of the bars' averages: %s", (_case, days, typical) => {
    const noChecks = { ...emptyTally(), up_ms: DAY };
    const tallies: Record<number, Tally> = { [today - 3]: noChecks, ...days };
    const [a, b] = [build([service({})], { 1: tallies }), build([service({ key: 2 })], { 2: tallies })];
    expect(a.groups[0].services[0].typical_ms).toBe(typical);
    // The scratch the medians are sorted in carries nothing from one service to the next.
    const both = build([service({}), service({ key: 2, name: 'Other' })], { 1: tallies, 2: { [today]: day(0, 7) } });
    expect(both.groups[0].services.map((s) => s.typical_ms).sort()).toEqual([7, typical].sort());
    expect(b.groups[0].services[0].typical_ms).toBe(typical);
  });

  it('leaves time in maintenance out of uptime, and shows a day mostly in maintenance as such', () => {
    // Today: 18 h in maintenance (Down then, not counted), 6 h up; yesterday: all maintenance.
    const held = (up: number, down: number, maint: number): Tally => ({
      ...day(0),
      up_ms: up,
      down_ms: down,
      maint_ms: maint,
    });
    const out = build([service({}), service({ key: 2, name: 'DB' })], {
      1: { [today]: held(DAY / 4, 0, (3 * DAY) / 4), [today - 1]: held(0, 0, DAY), [today - 2]: day(DAY / 10) },
      2: { [today]: day(0) },
    });
    const s = out.groups[0].services.find((x) => x.name === 'Web')!;
    expect(s.bars.slice(-3).map((b) => [b.state, b.uptime, b.maintenance_ms])).toEqual([
      ['bad', 90, 0],
      ['maintenance', null, DAY],
      ['maintenance', 100, (3 * DAY) / 4],
    ]);
    // Over the range: 1.25 days of up and down time, 0.1 day of it down.
    expect(s.uptime).toBeCloseTo((1.15 / 1.25) * 100, 2);
    expect(out.groups[0].bars.slice(-2).map((b) => b.state)).toEqual(['maintenance', 'maintenance']);
  });

  it('marks days before watching began not_watched and says since when', () => {
    const out = build([service({ watchedFrom: NOW - 2 * DAY })], { 1: { [today]: day(0) } });
    const bars = out.groups[0].services[0].bars;
    expect(bars.slice(0, 27).every((b) => b.state === 'not_watched')).toBe(true);
    expect(bars[27].state).toBe('no_data');
    expect(out.groups[0].services[0].from).toBe('Since 16 Nov 2026');
  });

  it('orders sections by group_order, then by name, with ungrouped services first', () => {
    expect(orderGroups(['b', null, 'Edge', 'a', 'b'], ['Edge'])).toEqual([null, 'Edge', 'a', 'b']);
    const out = build(
      [
        service({ key: 1, name: 'Z', group: 'core' }),
        service({ key: 2, name: 'Y', group: 'Edge', sort: 2 }),
        service({ key: 3, name: 'X', group: 'Edge', sort: 1 }),
      ],
      {},
    );
    expect(out.groups.map((g) => [g.name, g.services.map((s) => s.name)])).toEqual([
      ['Edge', ['X', 'Y']],
      ['core', ['Z']],
    ]);
  });

  it('gives a section its worst service state per bar and the overall rule on its services', () => {
    const out = build(
      [service({ key: 1, group: 'g', status: 'down' }), service({ key: 2, name: 'B', group: 'g', status: 'up' })],
      { 1: { [today]: day(DAY) }, 2: { [today]: day(0), [today - 1]: day(1000) } },
    );
    const g = out.groups[0];
    expect(g.status).toBe('major_outage');
    expect(g.bars[29]).toMatchObject({ state: 'bad', down_ms: DAY, uptime: 50 });
    expect(g.bars[28]).toMatchObject({ state: 'warn', down_ms: 1000 });
    expect(out.overall).toBe('major_outage');
    expect(out.summary).toMatchObject({ overall: 'major_outage', services: 2, typical_ms: 100 });
  });

  it('gives every service a unique page from its public name', () => {
    const out = build(
      [service({ key: 1, name: 'Web' }), service({ key: 2, name: 'web' }), service({ key: 3, name: 'History' })],
      {},
    );
    expect(out.groups[0].services.map((s) => s.page)).toEqual([
      '/status/history-service',
      '/status/web',
      '/status/web-2',
    ]);
  });

  it('lists open and recent incidents of public services in the range, with times only', () => {
    const incidents: IncidentInput[] = [
      { key: 1, started_at: NOW - 3600_000, ended_at: null },
      { key: 1, started_at: NOW - 5 * DAY, ended_at: NOW - 5 * DAY + 600_000 },
      { key: 1, started_at: NOW - 50 * DAY, ended_at: NOW - 50 * DAY + 60_000 }, // before 30d
      { key: 9, started_at: NOW - DAY, ended_at: NOW - DAY + 1000 }, // not a public service
    ];
    const out = build([service({ key: 1, name: 'Web', status: 'down' })], {}, incidents);
    expect(out.incidents).toEqual({
      open: [
        {
          name: 'Web',
          page: '/status/web',
          started_at: '2026-11-18T11:00:00.000Z',
          ended_at: null,
          duration_ms: 3600_000,
        },
      ],
      recent: [
        {
          name: 'Web',
          page: '/status/web',
          started_at: '2026-11-13T12:00:00.000Z',
          ended_at: '2026-11-13T12:10:00.000Z',
          duration_ms: 600_000,
        },
      ],
    });
    expect(out.summary).toMatchObject({ incidents: 2, longest_ms: 3600_000 });
  });

  it('answers an empty page without services', () => {
    const out = build([], {});
    expect(out).toMatchObject({
      overall: 'operational',
      groups: [],
      summary: { services: 0, uptime: null, incidents: 0, longest_ms: null, typical_ms: null },
    });
  });
});
