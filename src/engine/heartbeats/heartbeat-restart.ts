/**
 * A heartbeat monitor's first deadline after the service starts. Pure.
 *
 * While the service was not running it could not receive pings, so a ping due in that time may
 * have been sent and lost. Such a job gets a fresh window (interval + grace) from the start, the
 * time a punctual job needs to ping again, and its note says why until the next ping.
 */
import { formatWhen } from '../../common/time';
import type { MonitorStatus } from '../../probes/status';

/** Even without a lost ping, a start leaves at least this much beyond grace before a deadline can pass. */
export const START_SLACK_MS = 60_000;

export interface HeartbeatStartInput {
  /** The last ping, or when the monitor began waiting for its first. */
  lastPing: number;
  intervalMs: number;
  graceMs: number;
  status: MonitorStatus;
  /** The last moment the service is known to have run before this start (last-alive mark); null if unknown. */
  stoppedAt: number | null;
  /** The first start after `farsight restore`: `stoppedAt` is then the backup's mark, the last the data knows of. */
  restored?: boolean;
  now: number;
}

export interface HeartbeatStart {
  due: number;
  /** Set when a ping may have been lost while the service was not running. */
  note: string | null;
}

export function heartbeatStart(i: HeartbeatStartInput): HeartbeatStart {
  const deadline = i.lastPing + i.intervalMs + i.graceMs;
  const floor = i.now + i.graceMs + START_SLACK_MS;
  // Down already: the deadline passed while the service ran, nothing was lost to the stop.
  // The deadline passed before the stop: the same, even if the miss was not recorded in time.
  // No ping due by now: the normal deadline still holds.
  const lostPing =
    i.stoppedAt !== null && i.status !== 'down' && deadline > i.stoppedAt && i.lastPing + i.intervalMs <= i.now;
  if (!lostPing || i.stoppedAt === null) return { due: Math.max(deadline, floor), note: null };
  return {
    due: Math.max(deadline, i.now + i.intervalMs + i.graceMs),
    note: i.restored
      ? `waiting for a ping: the database was restored from a backup taken at ${formatWhen(i.stoppedAt)}`
      : `waiting for a ping: the service was offline from ${formatWhen(i.stoppedAt)} to ${formatWhen(i.now)}`,
  };
}
