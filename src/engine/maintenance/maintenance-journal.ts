/**
 * What a maintenance window's start or end puts into the engine's journal (docs/maintenance.md):
 * a `maintenance.started` / `maintenance.ended` timeline line naming the window and its monitors,
 * its bus announcement (the live stream's event; channels get nothing), and, for each monitor the
 * end leaves Down without an incident, the incident it opens and the down alert it sends, as if
 * the Down had just been confirmed: or, when a monitor it depends on is Down, it joins that
 * outage as dependencies do (releasedOrder decides parents first). All of it is written with the
 * writer's next commit (asked for within a second) and announced after it: durable, then announced.
 */
import { toIso } from '../../common/time';
import type { MaintenanceMark } from '../../probes/status';
import type { Journal } from '../journal/journal';
import type { LiveMonitor } from '../live/live-monitor';
import type { Dependencies } from '../dependencies/dependencies';
import { releasedOrder } from '../dependencies/dependency-rules';
import type { Clock } from '../../common/clock';
import type { Timers } from '../scheduling/scheduler';
import { BookChanges, covers, MaintenanceBook } from './maintenance-book';
import type { WindowRow } from './windows.table';

export interface MaintenanceJournalDeps {
  journal: Journal;
  monitor(id: number): LiveMonitor | undefined;
  /** Every monitor the engine holds (a window with `monitors: null` covers them all). */
  monitorIds(): Iterable<number>;
  markOf(id: number): MaintenanceMark | null;
  /** The monitor's answer changed (and, with `soon`, its state row must be written within a second). */
  changed(m: LiveMonitor, soon: boolean): void;
  /** Where a monitor let go while Down finds the outage it joins. */
  dependencies: Dependencies;
}

/** What letting go of Down monitors needs (the window's end, and a start after it: reconcile.ts). */
export type ReleaseDeps = Pick<MaintenanceJournalDeps, 'journal' | 'changed' | 'dependencies'>;

/** A monitor no window holds any more, still Down without an incident, and the words of its line. */
export interface Released {
  m: LiveMonitor;
  /** After the monitor's name: "is still down at the end of maintenance \"Backup\"". */
  words: string;
  /** The window that let it go, when known (its line's data). */
  windowId: number | null;
}

/** The engine's book of windows, whose changes go into the journal (EngineService). */
export function maintenanceBook(
  clock: Clock,
  timers: Timers,
  deps: Omit<MaintenanceJournalDeps, 'markOf'>,
): MaintenanceBook {
  const book: MaintenanceBook = new MaintenanceBook(clock, timers, (c, now) =>
    journalMaintenance({ ...deps, markOf: (id) => book.markOf(id) }, c, now),
  );
  return book;
}

/** Names shown in a line before "and N more". */
const NAMES_SHOWN = 10;

export function journalMaintenance(d: MaintenanceJournalDeps, c: BookChanges, now: number): void {
  for (const { window: w, span } of c.started) line(d, w, true, now, span?.end ?? null);
  for (const { window: w } of c.ended) line(d, w, false, now, null);
  // Every monitor whose mark may have moved: its answer is made again, and one left Down opens its incident.
  const windows = [...c.started, ...c.ended].map((x) => x.window).concat(c.edited.flatMap((e) => [e.before, e.after]));
  const ids = windows.some((w) => w.monitors === null)
    ? d.monitorIds()
    : new Set(windows.flatMap((w) => w.monitors ?? []));
  // A window that ended, or was edited while active (as it was): a monitor it held and nothing holds now is let go.
  const letGo = [...c.ended.map((e) => e.window), ...c.edited.map((e) => e.before)];
  const released: Released[] = [];
  for (const id of ids) {
    const m = d.monitor(id);
    if (!m) continue;
    d.changed(m, false);
    // An affected monitor (in its cause's outage before the window) stays there.
    if (d.markOf(id) !== null || m.state.status !== 'down' || d.journal.incidents.openOf(id) || m.cause) continue;
    const ended = letGo.find((w) => covers(w, id));
    if (ended)
      released.push({ m, words: `is still down at the end of maintenance "${ended.title}"`, windowId: ended.id });
  }
  releaseDown(d, released, now);
}

/**
 * Monitors no window holds any more, still Down without an incident: parents first
 * (releasedOrder), each joins the outage of a Down monitor it depends on, or else opens its
 * incident and alerts, as if its Down had just been confirmed.
 */
export function releaseDown(d: ReleaseDeps, released: readonly Released[], now: number): void {
  if (released.length === 0) return;
  const byId = new Map(released.map((r) => [r.m.id, r]));
  for (const { id } of releasedOrder([...byId.keys()], d.dependencies.view)) {
    const r = byId.get(id)!;
    const m = r.m;
    m.heldDown = false;
    // The order is the rule's; the cause is read now, when a parent decided just before has its incident.
    const cause = d.dependencies.causeFor(m);
    if (cause && d.dependencies.joinReleased(m, cause, now, `${m.config.name} ${r.words}`)) continue;
    openReleased(d, r, now);
  }
}

function line(d: MaintenanceJournalDeps, w: WindowRow, started: boolean, now: number, endsAt: number | null): void {
  const names = coveredNames(d, w);
  const until = started ? (endsAt === null ? ', until stopped' : `, until ${toIso(endsAt)}`) : '';
  d.journal.line({
    kind: started ? 'maintenance.started' : 'maintenance.ended',
    at: now,
    actor: 'system',
    text: `maintenance "${w.title}" ${started ? 'started' : 'ended'} for ${names}${until}`,
    data: { window_id: w.id, title: w.title, monitors: w.monitors, ends_at: started ? toIso(endsAt) : null },
  });
  d.journal.announceLater({
    name: 'maintenance',
    payload: { started, window_id: w.id, title: w.title, monitors: w.monitors, at: now, ends_at: endsAt },
  });
}

function coveredNames(d: MaintenanceJournalDeps, w: WindowRow): string {
  if (w.monitors === null) return 'every monitor';
  const names = w.monitors.flatMap((id) => {
    const m = d.monitor(id);
    return m ? [m.config.name] : [];
  });
  if (names.length === 0) return 'no monitor';
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN ? `${shown} and ${names.length - NAMES_SHOWN} more` : shown;
}

/** A monitor still Down when its window ends: the incident opens now and the down alert goes out. */
function openReleased(d: ReleaseDeps, { m, words, windowId }: Released, now: number): void {
  const s = m.state;
  const error = s.error_code ? { code: s.error_code, message: s.error_message ?? '' } : null;
  const failingSince = s.failingSince ?? s.since;
  const incident = d.journal.incidents.start(m.id, m.config.name, {
    at: now,
    error,
    fails: Math.max(1, s.failing),
    failingSince,
  });
  m.incidentId = incident.id;
  d.changed(m, true);
  d.journal.line({
    kind: 'down',
    at: now,
    monitorId: m.id,
    incidentId: incident.id,
    actor: 'system',
    text: `${m.config.name} ${words}`,
    data: { error, window_id: windowId },
  });
  d.journal.announceLater({ name: 'incident', payload: { incident } });
  if (!d.journal.alerting) return;
  const flapping = s.flapping === 1;
  d.journal.alert({
    monitorId: m.id,
    cause: 'down',
    at: now,
    incidentId: incident.id,
    config: m.config,
    flapping,
    held: flapping,
    error,
    durationMs: now - failingSince,
  });
  if (!flapping) m.downAlerted = incident.id;
}
