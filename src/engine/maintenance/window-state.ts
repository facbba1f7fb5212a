/**
 * A maintenance window's state at a moment, from its schedule and the times set by hand (POST
 * start and stop). Pure (docs/maintenance.md, "State"):
 * - active: started by hand and not past its `end`, or inside a scheduled occurrence that was not
 *   stopped by hand;
 * - scheduled: not active, with an occurrence still to come (a manual window never started
 *   counts as scheduled: it waits for a hand);
 * - ended: neither.
 */
import { currentSpan, nextSpan, Schedule } from './schedule';

export type WindowState = 'scheduled' | 'active' | 'ended';

export interface WindowTimes {
  schedule: Schedule;
  manual_start: number | null;
  /** null while started by hand: active until stopped. */
  manual_end: number | null;
  /** A scheduled occurrence ending at or before this was stopped by hand. */
  stopped_until: number | null;
  ended_at: number | null;
}

/** A span whose end may be open (started by hand without an end). */
export interface OpenSpan {
  start: number;
  end: number | null;
}

export interface WindowView {
  state: WindowState;
  current: OpenSpan | null;
  next: OpenSpan | null;
}

export function currentOf(w: WindowTimes, now: number): OpenSpan | null {
  if (w.manual_start !== null && w.manual_start <= now && (w.manual_end === null || now < w.manual_end))
    return { start: w.manual_start, end: w.manual_end };
  const span = currentSpan(w.schedule, now);
  if (span && !(w.stopped_until !== null && span.end <= w.stopped_until)) return span;
  return null;
}

export function viewOf(w: WindowTimes, now: number): WindowView {
  const current = currentOf(w, now);
  const next = nextSpan(w.schedule, now);
  if (current) return { state: 'active', current, next };
  const waiting = next !== null || (w.schedule.kind === 'manual' && w.ended_at === null);
  return { state: waiting ? 'scheduled' : 'ended', current: null, next };
}

/**
 * The next moment after `now` at which the window's activity may change (a start or an end), or
 * null when none is known (a window that is over, or started by hand without an end). The engine
 * wakes for it like a due check.
 */
export function nextBoundary(w: WindowTimes, now: number): number | null {
  const current = currentOf(w, now);
  if (current) return current.end;
  const candidates: number[] = [];
  const next = nextSpan(w.schedule, now);
  if (next) candidates.push(next.start);
  if (w.manual_start !== null && w.manual_start > now) candidates.push(w.manual_start);
  return candidates.length ? Math.min(...candidates) : null;
}

/** POST start: active from `now` until `end` (null: until stopped). */
export function startedByHand<W extends WindowTimes>(w: W, now: number, end: number | null): W {
  return { ...w, manual_start: now, manual_end: end, stopped_until: null };
}

/** POST stop: over now; a scheduled occurrence running now stays over until its own end. */
export function stoppedByHand<W extends WindowTimes>(w: W, now: number): W {
  const span = currentSpan(w.schedule, now);
  return {
    ...w,
    manual_start: null,
    manual_end: null,
    stopped_until: span ? span.end : w.stopped_until,
    ended_at: now,
  };
}
