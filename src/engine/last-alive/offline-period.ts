/**
 * Offline periods of the service itself, found on start from the last-alive mark. Pure.
 *
 * While the service runs it rewrites the mark every MARK_EVERY_MS, and once more on a clean stop.
 * After an unclean stop (kill -9, power cut) the mark is up to MARK_EVERY_MS older than the real
 * stop, so gaps up to twice that are a plain restart, not an offline period.
 */
import { formatWhen } from '../../common/time';

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
  return `Farsight was offline from ${formatWhen(p.from)} to ${formatWhen(p.to)} (${duration(p.to - p.from)}, ${how}): nothing was checked`;
}

/**
 * What `farsight restore` leaves in the restored database, as the data of its `restored` timeline
 * line. The backup's own last-alive mark says when the service it was taken of last ran (a backup
 * of a running service carries the periodic mark, clean = 0: read as a mark, it would report the
 * restore as a crash); the replaced database's mark says when the service really stopped, and how.
 * Restore removes the last-alive row, so the first start after it finds this record instead.
 */
export interface RestoreRecord {
  /** The restored backup's last-alive mark (within MARK_EVERY_MS of when it was taken); null if it has none. */
  backup_at: number | null;
  /** The mark of the database the restore replaced; null for a restore into an empty data dir. */
  replaced: AliveMark | null;
}

export interface StartFacts {
  /** What the data knows up to: heartbeats' pings after it are not in this database. */
  stoppedAt: number | null;
  offline: OfflinePeriod | null;
  /** Set on the first start after a restore. */
  restored: RestoreRecord | null;
}

/**
 * The facts of a start: from the mark of the last run, or, on the first start after a restore
 * (no mark, a restore record), from the replaced database's mark: the time the service was really
 * not running, stopped the way it really stopped. A restore into an empty data dir knows no stop,
 * so it claims no offline period.
 */
export function startFacts(mark: AliveMark | null, restored: RestoreRecord | null, now: number): StartFacts {
  if (mark) return { stoppedAt: mark.at, offline: offlinePeriod(mark, now), restored: null };
  if (restored) return { stoppedAt: restored.backup_at, offline: offlinePeriod(restored.replaced, now), restored };
  return { stoppedAt: null, offline: null, restored: null };
}

export function restoredText(r: RestoreRecord): string {
  if (r.backup_at === null) return 'The database was restored from a backup (farsight restore)';
  return `The database was restored from a backup taken at ${formatWhen(r.backup_at)} (farsight restore): what happened after that time is not in it`;
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
