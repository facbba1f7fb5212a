import { LABEL_COLOR } from './badge-svg';
import { COLORS, contrast, defaultLabel, latencyBadge, readBadgeQuery, statusBadge, uptimeBadge } from './badge-facts';

describe('badge facts', () => {
  it.each([...Object.entries(COLORS), ['label', LABEL_COLOR]])(
    'white text on %s (%s) meets WCAG AA (4.5:1)',
    (_n, color) => {
      expect(contrast('#ffffff', color)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it.each([
    ['#ffffff', '#000000', 21],
    ['#777777', '#777777', 1],
  ])('computes the contrast of %s and %s as %p', (a, b, ratio) => {
    expect(contrast(a, b)).toBeCloseTo(ratio, 2);
  });

  it.each([
    [100, '100%', COLORS.green],
    [99.999, '99.99%', COLORS.green],
    [99.9, '99.90%', COLORS.green],
    [99.899, '99.89%', COLORS.amber],
    [99, '99.00%', COLORS.amber],
    [98.5, '98.50%', COLORS.red],
    [null, 'no data', COLORS.grey],
  ])('shows an uptime of %p %% as %s', (pct, message, color) => {
    expect(uptimeBadge('uptime', pct)).toEqual({ label: 'uptime', message, color });
  });

  it.each([
    [12.4, '12 ms'],
    [999, '999 ms'],
    [1250, '1.3 s'],
    [12_000, '12 s'],
    [null, 'no data'],
  ])('shows a typical latency of %p ms as %s', (ms, message) => {
    expect(latencyBadge('latency', ms).message).toBe(message);
  });

  it.each([
    ['up', 'up', COLORS.green],
    ['slow', 'slow', COLORS.amber],
    ['down', 'down', COLORS.red],
    ['paused', 'paused', COLORS.grey],
    ['unknown', 'unknown', COLORS.grey],
  ] as const)('says a %s service is %s', (status, message, color) => {
    expect(statusBadge('Web', status)).toEqual({ label: 'Web', message, color });
  });

  it('cuts a long public name to 40 characters for the default label', () => {
    expect(defaultLabel('x'.repeat(41))).toBe(`${'x'.repeat(39)}…`);
    expect(defaultLabel('Home')).toBe('Home');
  });

  it('takes the defaults when nothing is asked', () => {
    expect(readBadgeQuery({})).toEqual({ ok: true, query: { style: 'flat', range: '30d', label: null } });
    expect(readBadgeQuery({ style: 'for-the-badge', range: '90d', label: '  Mine ', v: '2' })).toEqual({
      ok: true,
      query: { style: 'for-the-badge', range: '90d', label: 'Mine' },
    });
  });

  it.each([
    [{ style: 'plastic' }, 'style'],
    [{ style: ['flat', 'flat'] }, 'style'],
    [{ range: '12mo' }, 'range'],
    [{ range: '' }, 'range'],
    [{ label: '' }, 'label'],
    [{ label: 'x'.repeat(41) }, 'label'],
    [{ label: 'a\u0007b' }, 'label'],
    [{ label: 'a\ud800b' }, 'label'],
    [{ label: ['a', 'b'] }, 'label'],
  ])('refuses %j naming %s', (q, field) => {
    const r = readBadgeQuery(q);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual([field]);
  });
});
