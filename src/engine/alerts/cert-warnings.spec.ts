import { certWarning, DAY_MS, thresholds } from './cert-warnings';

describe('certificate warnings', () => {
  it.each([
    [14, [14, 7, 3, 1]],
    [30, [30, 7, 3, 1]],
    [5, [5, 3, 1]],
    [7, [7, 3, 1]],
    [1, [1]],
    [0, []],
  ])('warns at %i days: thresholds %j', (warn, expected) => {
    expect(thresholds(warn)).toEqual(expected);
  });

  const NA = 100 * DAY_MS;
  it.each([
    ['20 days left: nothing yet', 20, null, null],
    ['exactly 14 days left: the 14-day warning', 14, null, 14],
    ['10 days left, 14 already warned: nothing', 10, { notAfter: NA, days: 14 }, null],
    ['6 days left, 14 warned: the 7-day warning', 6, { notAfter: NA, days: 14 }, 7],
    ['2 days left, nothing warned (service was off): only the 3-day warning', 2, null, 3],
    ['expired, 1 warned: nothing more', -1, { notAfter: NA, days: 1 }, null],
    ['a renewed certificate starts afresh', 13, { notAfter: NA - 50 * DAY_MS, days: 1 }, 14],
  ] as const)('%s', (_, daysLeft, warned, expected) => {
    expect(certWarning(NA, NA - daysLeft * DAY_MS, 14, warned)).toBe(expected);
  });

  it('never warns when tls_warn_days is 0', () => {
    expect(certWarning(NA, NA - DAY_MS, 0, null)).toBeNull();
  });
});
