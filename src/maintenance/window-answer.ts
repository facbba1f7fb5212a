/**
 * A maintenance window as every answer shows it (GET, POST, PATCH, start, stop, lists): its
 * fields, its schedule with times as RFC 3339, and its state, current and next span at `now`.
 * The one mapper of the resource; pure.
 */
import { toIso } from '../common/time';
import { scheduleAnswer } from '../engine/maintenance/schedule-input';
import { OpenSpan, viewOf, WindowState } from '../engine/maintenance/window-state';
import type { WindowRow } from '../engine/maintenance/windows.table';

export interface WindowAnswer {
  id: number;
  title: string;
  description: string | null;
  monitors: number[] | null;
  schedule: Record<string, unknown>;
  public: boolean;
  announce_h: number;
  state: WindowState;
  current: { start: string; end: string | null } | null;
  next: { start: string; end: string | null } | null;
  created_at: string;
  updated_at: string;
}

const span = (s: OpenSpan | null) => (s ? { start: toIso(s.start), end: toIso(s.end) } : null);

export function toWindowAnswer(w: WindowRow, now: number): WindowAnswer {
  const view = viewOf(w, now);
  return {
    id: w.id,
    title: w.title,
    description: w.description,
    monitors: w.monitors,
    schedule: scheduleAnswer(w.schedule),
    public: w.public,
    announce_h: w.announce_h,
    state: view.state,
    current: span(view.current),
    next: span(view.next),
    created_at: toIso(w.created_at),
    updated_at: toIso(w.updated_at),
  };
}
