import { drawChart, niceCeil } from './chart';
import { historyWindow, parseBefore } from './history-pages';
import { assignPageNames, pageName, pagePath } from './page-names';

describe('page names', () => {
  it.each([
    ['Web', 'web'],
    ['  API gateway (EU)  ', 'api-gateway-eu'],
    ['Café & Bar', 'café-bar'],
    ['Датабаза', 'датабаза'],
    ['監視', '監視'],
    ['!!!', 'service'],
    ['history', 'history-service'],
    ['Logo', 'logo-service'],
    ['x'.repeat(80), 'x'.repeat(60)],
  ])('%j -> %j', (name, page) => expect(pageName(name)).toBe(page));

  it('makes repeated names unique in order', () => {
    expect(assignPageNames(['Web', 'WEB', 'web!', 'Web 2'])).toEqual(['web', 'web-2', 'web-3', 'web-2-2']);
  });

  it('encodes the path', () => {
    expect(pagePath('café-bar')).toBe('/status/caf%C3%A9-bar');
  });
});

describe('history pages', () => {
  const NOW = Date.UTC(2026, 1, 10, 12); // February 2026
  it.each([
    [undefined, ['2026-02', '2025-12'], null, '2025-12', true],
    ['garbage', ['2026-02', '2025-12'], null, '2025-12', true],
    ['2026-13', ['2026-02', '2025-12'], null, '2025-12', true],
    ['2030-01', ['2026-02', '2025-12'], null, '2025-12', true],
    ['2026-03', ['2026-02', '2025-12'], null, '2025-12', true],
    ['2025-12', ['2025-11', '2025-09'], '', '2025-09', false],
    ['2025-09', ['2025-08', '2025-06'], '2025-12', '2025-06', false],
  ])('before=%j shows %j (newer %j, older %j)', (before, [newest, oldest], newer, older, first) => {
    const w = historyWindow(before, NOW, 0, Date.UTC(2020, 0, 1));
    expect(w.months.map((m) => m.id)).toEqual([newest, expect.any(String), oldest]);
    expect(w).toMatchObject({ newer, older, first });
  });

  it('offers no older page past the oldest incident', () => {
    expect(historyWindow(undefined, NOW, 0, Date.UTC(2026, 0, 5)).older).toBeNull();
    expect(historyWindow(undefined, NOW, 0, null).older).toBeNull();
    expect(historyWindow(undefined, NOW, 0, Date.UTC(2025, 11, 31)).older).toBeNull(); // December is on this page
    expect(historyWindow(undefined, NOW, 0, Date.UTC(2025, 10, 30)).older).toBe('2025-12');
  });

  it('cuts months at local midnight', () => {
    const [feb] = historyWindow(undefined, NOW, 120, null).months;
    expect(feb).toMatchObject({
      label: 'February 2026',
      start: Date.UTC(2026, 1, 1) - 7200_000,
      end: Date.UTC(2026, 2, 1) - 7200_000,
    });
  });

  it.each([
    ['2026-01', true],
    ['1969-12', false],
    ['2026-1', false],
    [['2026-01'], false],
  ])('parseBefore(%j) reads a month: %s', (raw, ok) => expect(parseBefore(raw) !== null).toBe(ok));
});

describe('chart', () => {
  it.each([
    [0.5, 1],
    [1, 1],
    [1.1, 2],
    [180, 200],
    [230, 250],
    [420, 500],
    [7000, 10000],
  ])('niceCeil(%d) = %d', (v, n) => expect(niceCeil(v)).toBe(n));

  it('draws a line with gaps where there is no data, and says what it shows', () => {
    const c = drawChart(
      [
        { label: 'a', avg_ms: 100 },
        { label: 'b', avg_ms: 200 },
        { label: 'c', avg_ms: null },
        { label: 'd', avg_ms: 50 },
        { label: 'e', avg_ms: null },
      ],
      'the last 5 days',
    );
    expect(c.empty).toBe(false);
    expect(c.line.match(/M/g)).toHaveLength(1); // a-b joined; d alone is a dot
    expect(c.dots).toHaveLength(1);
    expect(c.ticks.map((t) => t.label)).toEqual(['250 ms', '125 ms', '0 ms']);
    expect(c.summary).toBe(
      'Average response time over the last 5 days: 117 ms. Slowest: 200 ms (b). Fastest: 50 ms (d).',
    );
  });

  it('says so when there is nothing to draw', () => {
    expect(drawChart([{ label: 'a', avg_ms: null }], 'the last 24 hours')).toMatchObject({ empty: true, line: '' });
  });
});
