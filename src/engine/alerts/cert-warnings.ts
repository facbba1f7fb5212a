/**
 * Certificate expiry warnings: at each threshold of tls_warn_days (the setting itself, then 7, 3
 * and 1 days below it; 0 = off), once per threshold per certificate. Pure.
 */
export const DAY_MS = 86_400_000;

/** What was already warned about: the certificate (by its expiry) and the lowest threshold crossed. */
export interface CertWarned {
  notAfter: number;
  days: number;
}

export function thresholds(warnDays: number): number[] {
  if (warnDays <= 0) return [];
  return [...new Set([warnDays, 7, 3, 1].filter((d) => d <= warnDays))].sort((a, b) => b - a);
}

/**
 * The threshold to warn about now, or null. A new certificate (another expiry) starts afresh; an
 * expired one is warned about at the last threshold.
 */
export function certWarning(notAfter: number, now: number, warnDays: number, warned: CertWarned | null): number | null {
  const left = (notAfter - now) / DAY_MS;
  const crossed = thresholds(warnDays).filter((d) => left <= d);
  if (crossed.length === 0) return null;
  const lowest = crossed[crossed.length - 1];
  if (warned && warned.notAfter === notAfter && warned.days <= lowest) return null;
  return lowest;
}
