/**
 * The maintenance windows the public status page may show (docs/maintenance.md, "On the status
 * page"): public ones that are active now, or scheduled to start within their `announce_h`. Which
 * monitors they hold is given as ids; the status page keeps only the public ones and shows their
 * public names. `publicWindowsAt` is pure.
 */
import type { Database } from '../db/database';
import { viewOf } from '../engine/maintenance/window-state';
import { allWindows, WindowRow } from '../engine/maintenance/windows.table';

export interface PublicWindow {
  title: string;
  description: string | null;
  state: 'scheduled' | 'active';
  starts_at: number;
  /** null: started by hand, until stopped. */
  ends_at: number | null;
  /** null: every monitor. */
  monitors: number[] | null;
}

export function publicWindowsAt(rows: readonly WindowRow[], now: number): PublicWindow[] {
  const out: PublicWindow[] = [];
  for (const w of rows) {
    if (!w.public) continue;
    const view = viewOf(w, now);
    const span =
      view.state === 'active'
        ? view.current
        : view.next && view.next.start - now <= w.announce_h * 3_600_000
          ? view.next
          : null;
    if (!span) continue;
    out.push({
      title: w.title,
      description: w.description,
      state: view.state === 'active' ? 'active' : 'scheduled',
      starts_at: span.start,
      ends_at: span.end,
      monitors: w.monitors,
    });
  }
  // Active first, then by start; the title breaks ties so the order is stable.
  return out.sort(
    (a, b) =>
      Number(b.state === 'active') - Number(a.state === 'active') ||
      a.starts_at - b.starts_at ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
  );
}

export async function readPublicWindows(db: Database, now: number): Promise<PublicWindow[]> {
  return publicWindowsAt(await allWindows(db), now);
}
