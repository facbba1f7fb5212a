import { checkRow, CheckRow, fromRow, maintenanceOf } from './check-row';
import {
  accountRow,
  accountRows,
  emptyAcc,
  HOUR_MS,
  maintenancePct,
  mergeAcc,
  RollupAcc,
  RollupDeltas,
  Tail,
  uptimePct,
} from './rollup-math';

const T0 = Date.UTC(2026, 10, 1, 10, 0, 0);
const MIN = 60_000;
const row = (
  monitorId: number,
  at: number,
  outcome: number,
  latency: number | null = 10,
  info: string | null = null,
): CheckRow => ({
  monitor_id: monitorId,
  at,
  outcome,
  latency,
  dns: null,
  conn: null,
  tls: null,
  ttfb: null,
  status: null,
  error: null,
  info,
});
const times = (acc: RollupAcc | undefined) =>
  acc && {
    up: acc.up_ms,
    down: acc.down_ms,
    unknown: acc.unknown_ms,
    n: acc.n_up + acc.n_slow + acc.n_down + acc.n_unknown,
  };

describe('accountRow', () => {
  it.each([
    ['a first check opens a span and counts', [row(1, T0, 0)], { up: 0, down: 0, unknown: 0, n: 1 }],
    [
      'the next check closes the span with the previous outcome',
      [row(1, T0, 0), row(1, T0 + MIN, 2)],
      { up: MIN, down: 0, unknown: 0, n: 2 },
    ],
    [
      'a span longer than the cap counts only up to the cap',
      [row(1, T0, 2), row(1, T0 + 10 * MIN, 0)],
      { up: 0, down: 2 * MIN, unknown: 0, n: 2 },
    ],
    [
      'a check that was not counted holds unknown time',
      [row(1, T0, 2, null, '{"n":"blind"}'), row(1, T0 + MIN, 0)],
      { up: 0, down: 0, unknown: MIN, n: 2 },
    ],
  ])('%s', (_name, rows, expected) => {
    const tails = new Map<number, Tail>();
    const d = new RollupDeltas();
    for (const r of rows) accountRow(r, tails, 2 * MIN, 0, d);
    expect(times(d.of(1, 'rollup_hour')?.get(Math.floor(T0 / HOUR_MS)))).toEqual(expected);
  });

  it('splits a span at the hour and at the local day, in the zone given', () => {
    const tails = new Map<number, Tail>([[1, { at: T0 - 30 * MIN, kind: 'up' }]]);
    const d = new RollupDeltas();
    // +10:30: local midnight is 13:30 UTC, so the span 09:30-10:30 UTC stays in one local day.
    accountRow(row(1, T0 + 30 * MIN, 0), tails, HOUR_MS, 630, d);
    const hours = d.of(1, 'rollup_hour')!;
    expect(times(hours.get(Math.floor(T0 / HOUR_MS) - 1))?.up).toBe(30 * MIN);
    expect(times(hours.get(Math.floor(T0 / HOUR_MS)))?.up).toBe(30 * MIN);
    expect([...d.of(1, 'rollup_day')!.values()].map((a) => a.up_ms)).toEqual([HOUR_MS]);
  });

  it('gives the same totals one row at a time as in one batch, and absorb() adds deltas up', () => {
    const rows = [
      row(2, T0, 0, 12),
      row(1, T0, 0, 30),
      row(1, T0 + MIN, 2),
      row(2, T0 + MIN, 1, 500),
      row(1, T0 + 2 * MIN, 0, 40),
    ];
    const batch = accountRows(rows, new Map(), () => 2 * MIN, 0);
    const tails = new Map<number, Tail>();
    const first = new RollupDeltas();
    const second = new RollupDeltas();
    // The order rows come in from the writer: time order per monitor, monitors interleaved.
    for (const [i, r] of rows.entries()) accountRow(r, tails, 2 * MIN, 0, i < 3 ? first : second);
    first.absorb(second);
    const flat = (d: RollupDeltas) =>
      [...d.entries()]
        .map((e) => [e.monitorId, e.table, e.key, e.acc])
        .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    expect(flat(first)).toEqual(flat(batch));
    const total = emptyAcc();
    for (const e of batch.entries()) if (e.table === 'rollup_hour') mergeAcc(total, e.acc);
    expect({
      n: total.n_up + total.n_slow + total.n_down,
      lat: total.lat_n,
      min: total.lat_min,
      max: total.lat_max,
    }).toEqual({ n: 5, lat: 4, min: 12, max: 500 });
  });

  it('takes some monitors out (the ones that fold), and drops one', () => {
    const d = new RollupDeltas();
    const tails = new Map<number, Tail>();
    for (const id of [1, 2, 3]) accountRow(row(id, T0, 0), tails, MIN, 0, d);
    const taken = d.take([1, 3, 9]);
    expect([...taken.entries()].map((e) => `${e.monitorId}:${e.table}`)).toEqual([
      '1:rollup_hour',
      '1:rollup_day',
      '3:rollup_hour',
      '3:rollup_day',
    ]);
    expect(d.monitorCount).toBe(1);
    d.drop(2);
    expect(d.monitorCount).toBe(0);
    expect([...d.entries()]).toEqual([]);
  });
});

describe('maintenance in the rollups (docs/maintenance.md, "Uptime")', () => {
  const W = '{"w":7}';
  const hourOf = (rows: CheckRow[]) => {
    const tails = new Map<number, Tail>();
    const d = new RollupDeltas();
    for (const r of rows) accountRow(r, tails, 2 * MIN, 0, d);
    return d.of(1, 'rollup_hour')!.get(Math.floor(T0 / HOUR_MS))!;
  };
  const figures = (acc: RollupAcc) => ({
    up: acc.up_ms,
    down: acc.down_ms,
    unknown: acc.unknown_ms,
    maint: acc.maint_ms,
    n: [acc.n_up, acc.n_slow, acc.n_down, acc.n_unknown, acc.n_maint],
    uptime: uptimePct(acc),
    share: maintenancePct(acc),
  });

  it.each<[string, CheckRow[], ReturnType<typeof figures>]>([
    [
      'a Down check in a window holds maintenance time and counts as maintenance, not down',
      [row(1, T0, 2, null, W), row(1, T0 + MIN, 0)],
      { up: 0, down: 0, unknown: 0, maint: MIN, n: [1, 0, 0, 0, 1], uptime: null, share: 100 },
    ],
    [
      'an Up check in a window is maintenance too (neither side of uptime)',
      [row(1, T0, 0, 10, W), row(1, T0 + MIN, 2)],
      { up: 0, down: 0, unknown: 0, maint: MIN, n: [0, 0, 1, 0, 1], uptime: null, share: 100 },
    ],
    [
      'a window between up and down: uptime from the time outside it only',
      [row(1, T0, 0), row(1, T0 + MIN, 2, null, W), row(1, T0 + 2 * MIN, 2, null, W), row(1, T0 + 3 * MIN, 2)],
      { up: MIN, down: 0, unknown: 0, maint: 2 * MIN, n: [1, 0, 1, 0, 2], uptime: 100, share: 66.667 },
    ],
    [
      'down outside the window still counts against uptime',
      [row(1, T0, 2), row(1, T0 + MIN, 2, null, W), row(1, T0 + 2 * MIN, 0), row(1, T0 + 3 * MIN, 0)],
      { up: MIN, down: MIN, unknown: 0, maint: MIN, n: [2, 0, 1, 0, 1], uptime: 50, share: 33.333 },
    ],
    [
      'a check not counted (blind) inside a window is maintenance: the window was planned',
      [row(1, T0, 2, null, '{"w":7,"n":"blind"}'), row(1, T0 + MIN, 0)],
      { up: 0, down: 0, unknown: 0, maint: MIN, n: [1, 0, 0, 0, 1], uptime: null, share: 100 },
    ],
    [
      'a failure whose message reads like a window mark is an ordinary failure',
      [row(1, T0, 2, null, '{"m":"{\\"w\\":7}"}'), row(1, T0 + MIN, 0)],
      { up: 0, down: MIN, unknown: 0, maint: 0, n: [1, 0, 1, 0, 0], uptime: 0, share: 0 },
    ],
  ])('%s', (_name, rows, expected) => {
    expect(figures(hourOf(rows))).toEqual(expected);
  });

  it('keeps latency of good answers in maintenance (the time of a real answer)', () => {
    const acc = hourOf([row(1, T0, 0, 30, W), row(1, T0 + MIN, 1, 50, W)]);
    expect({ n: acc.lat_n, min: acc.lat_min, max: acc.lat_max }).toEqual({ n: 2, min: 30, max: 50 });
  });

  it('adds maintenance time and counts when merging (a fold onto a stored row)', () => {
    const a = { ...emptyAcc(), up_ms: 5, maint_ms: 7, n_maint: 2 };
    const b = { ...emptyAcc(), down_ms: 5, maint_ms: 3, n_maint: 1 };
    mergeAcc(a, b);
    expect([a.up_ms, a.down_ms, a.maint_ms, a.n_maint, uptimePct(a)]).toEqual([5, 5, 10, 3, 50]);
  });
});

describe('maintenanceOf', () => {
  it.each<[string | null, number | null]>([
    [null, null],
    ['{"w":12}', 12],
    ['{"w":3,"m":"refused","n":"blind"}', 3],
    ['{"m":"x","w":3}', null], // never written so: the mark is read from the start only
    ['{"m":"{\\"w\\":3}"}', null],
    ['{"w":"x"}', null],
  ])('%j → %j', (info, expected) => {
    expect(maintenanceOf(info)).toBe(expected);
  });

  it('a result made in a window is stored with its window first, and read back', () => {
    const result = {
      at_ms: T0,
      outcome: 'down' as const,
      latency_ms: null,
      phases: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null },
      status: null,
      error: { code: 'refused' as const, message: '{"w":99}' },
      cert: null,
      detail: null,
    };
    const stored = checkRow(result, 1, null, 4);
    expect(stored.info!.startsWith('{"w":4,')).toBe(true);
    expect(fromRow(stored)).toMatchObject({ maintenance: 4, error: { message: '{"w":99}' } });
    expect(fromRow(checkRow(result, 1, null)).maintenance).toBeNull();
    expect(checkRow({ ...result, outcome: 'up', error: null }, 1, null).info).toBeNull();
  });
});
