import { describeCertValidity } from './cert-validity';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const DAY = 86_400_000;

describe('describeCertValidity', () => {
  it.each<[number, string]>([
    [NOW + 90 * DAY + 1000, 'certificate valid for 90 days more (until 2026-04-10)'],
    [NOW + DAY + 1, 'certificate valid for 1 day more (until 2026-01-11)'],
    [NOW + 3_600_000, 'certificate expires within a day (2026-01-10)'],
    [NOW - 3_600_000, 'certificate expired today (2026-01-10)'],
    [NOW - 3 * DAY, 'certificate expired 3 days ago (2026-01-07)'],
  ])('a certificate ending at %i reads %j', (notAfter, text) => {
    expect(describeCertValidity({ not_after: notAfter, issuer: 'CA', subject: 'x' }, NOW)).toBe(text);
  });
});
