/**
 * Offline periods of the service itself, found on start from the last-alive mark. Pure.
 *
 * While the service runs it rewrites the mark every MARK_EVERY_MS, and once more on a clean stop.
 * After an unclean stop (kill -9, power cut) the mark is up to MARK_EVERY_MS older than the real
 * stop, so gaps up to twice that are a plain restart, not an offline period.
 */
import { toIso } from '../common/time';

export const MARK_EVERY_MS = 30_000;
export const OFFLINE_AFTER_MS = 2 * MARK_EVERY_MS;

export interface AliveMark {
  at: number;
  /** Written by a clean stop (SIGTERM), not by the periodic mark. */
  clean: boolean;
}

export interface OfflinePeriod {
  /** The last moment the service is known to have run. */
  from: number;
  /** When it started again. */
  to: number;
  clean: boolean;
}

/** The offline period a start ends, or null (first start, or a gap too short to be one). */
export function offlinePeriod(mark: AliveMark | null, now: number): OfflinePeriod | null {
  if (!mark || now - mark.at <= OFFLINE_AFTER_MS) return null;
  return { from: mark.at, to: now, clean: mark.clean };
}

export function offlineText(p: OfflinePeriod): string {
  // After an unclean stop `from` is the last mark, up to MARK_EVERY_MS before the service went away.
  const how = p.clean ? 'stopped cleanly' : 'stopped without warning: a crash, a kill or a power cut';
  return `Farsight was offline from ${toIso(p.from)} to ${toIso(p.to)} (${duration(p.to - p.from)}, ${how}): nothing was checked`;
}

/** `45 s`, `12 min`, `1 h 5 min`, `2 d 3 h`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
