/**
 * The GET /checks cursor `<epoch_ms>:<monitor_id>`: checks across monitors are ordered newest
 * first by time, then by monitor id, and two monitors can share a millisecond, so the time alone
 * would skip or repeat rows at a page boundary.
 */
import type { CursorCodec, LimitRule } from '../common/paging';

export interface CheckCursor {
  at: number;
  monitorId: number;
}

/** The spec's own rule for GET /checks: default 100, 1-500. */
export const CHECKS_LIMIT: LimitRule = { default: 100, min: 1, max: 500 };

export const CHECK_CURSOR: CursorCodec<CheckCursor> = {
  parse(text) {
    const m = /^(\d{1,15}):(\d{1,15})$/.exec(text);
    return m ? { at: Number(m[1]), monitorId: Number(m[2]) } : null;
  },
  format: (c) => `${c.at}:${c.monitorId}`,
  shape: '<epoch_ms>:<number>',
};

/** Whether a check sorts strictly after the cursor (is on a later page). */
export function isAfterCursor(r: { at: number; monitor_id: number }, cursor: CheckCursor | null): boolean {
  return !cursor || r.at < cursor.at || (r.at === cursor.at && r.monitor_id < cursor.monitorId);
}
