/**
 * The GET /checks cursor `<epoch_ms>:<monitor_id>`: checks across monitors are ordered newest
 * first by time, then by monitor id, and two monitors can share a millisecond, so the time alone
 * would skip or repeat rows at a page boundary.
 */
import { CursorCodec, LimitRule, TIME_ID_CURSOR } from '../common/http/paging';

export interface CheckCursor {
  at: number;
  monitorId: number;
}

/** The spec's own rule for GET /checks: default 100, 1-500. */
export const CHECKS_LIMIT: LimitRule = { default: 100, min: 1, max: 500 };

export const CHECK_CURSOR: CursorCodec<CheckCursor> = {
  parse(text) {
    const c = TIME_ID_CURSOR.parse(text);
    return c && { at: c.at, monitorId: c.id };
  },
  format: (c) => TIME_ID_CURSOR.format({ at: c.at, id: c.monitorId }),
  shape: TIME_ID_CURSOR.shape,
};

/** Whether a check sorts strictly after the cursor (is on a later page). */
export function isAfterCursor(r: { at: number; monitor_id: number }, cursor: CheckCursor | null): boolean {
  return !cursor || r.at < cursor.at || (r.at === cursor.at && r.monitor_id < cursor.monitorId);
}
