/**
 * What the engine holds when it starts: each stored monitor with its machine state and its open
 * incident, from the start's big reads (start-reads.ts). Results committed to the log but not
 * folded (the last stop was not clean) go back into the writer's memory, into the rollups, and
 * into the states, whose rows may predate them. Each probe location's track of the monitors judged
 * by quorum (the service's own, `local`, too) is rebuilt from its last stored results.
 */
import type { Clock } from '../../common/clock';
import type { Database } from '../../db/database';
import { lastIncidentId, openIncidentRows } from '../../events/incidents.table';
import type { MonitorsRepository } from '../../catalog/monitors.repository';
import type { CheckRow } from '../../history/check-row';
import type { RollupsService } from '../../history/rollups.service';
import type { CheckWriter } from '../../history/writer';
import { assumedDownAlerted } from '../alerts/alert-hold';
import type { IncidentBook } from '../journal/incident-book';
import { catchUp, fromStoredState, LiveMonitor, policyOf } from './live-monitor';
import type { EngineStartReads } from './start-reads';
import type { StoredStateRow } from '../../catalog/monitor-state.table';
import type { MonitorStatus } from '../../probes/status';
import { initialMachineState } from '../state-machine';
import { byQuorum, LocationVotes } from '../locations/location-votes';
import { LOCAL_NAME } from '../../catalog/locations.table';

export interface StartLoadDeps {
  db: Database;
  writer: CheckWriter;
  rollups: RollupsService;
  monitors: MonitorsRepository;
  incidents: IncidentBook;
  /** Each probe location's view of the monitors judged by quorum, rebuilt from what they last sent. */
  votes: LocationVotes;
  clock: Clock;
  /** How long a check's outcome may hold (EngineService.capOf), for the rollups. */
  capOf(id: number): number;
}

/** The monitors in stored order, and the clock reading they were loaded at. */
export async function loadLiveMonitors(
  reads: EngineStartReads,
  d: StartLoadDeps,
): Promise<{ monitors: LiveMonitor[]; now: number }> {
  const [latest, rows, stateRows] = await Promise.all([reads.latest, reads.monitors, reads.states]);
  // One look at each monitor's newest stored check serves both the writer and the rollups.
  d.writer.seedLastTimes(latest);
  const logged = await d.writer.restore();
  await d.rollups.start(d.capOf, latest, logged);
  const loggedOf = new Map<number, CheckRow[]>();
  for (const r of logged) {
    const list = loggedOf.get(r.monitor_id);
    if (list) list.push(r);
    else loggedOf.set(r.monitor_id, [r]);
  }
  const lastId = await lastIncidentId(d.db);
  d.incidents.restore(await openIncidentRows(d.db), lastId);
  const states = new Map(stateRows.map((s) => [s.monitor_id, s]));
  const now = d.clock.now();
  const monitors = rows.map((row): LiveMonitor => {
    const stored = d.monitors.toStored(row);
    const s = states.get(row.id);
    const restored = s
      ? fromStoredState(s)
      : { state: initialMachineState(now, stored.config.paused), certWarned: null, downAlerted: null, heldDown: false };
    const since = loggedOf.get(row.id);
    if (since)
      restored.state = catchUp(
        restored.state,
        since.sort((a, b) => a.at - b.at),
        policyOf(stored.config, { kind: stored.config.kind === 'heartbeat' ? 'ping' : 'scheduled' }),
      );
    const incidentId = d.incidents.openOf(row.id)?.id ?? null;
    const downAlerted =
      restored.downAlerted !== undefined
        ? restored.downAlerted
        : assumedDownAlerted(incidentId, restored.state.flapping === 1);
    return {
      id: row.id,
      config: stored.config,
      state: restored.state,
      certWarned: restored.certWarned,
      downAlerted,
      incidentId,
      cause: restoredCause(s, restored.state.status, d.incidents),
      heldDown: restored.heldDown,
    };
  });
  const configs = new Map(monitors.map((m) => [m.id, m.config]));
  // The service's own results still in the log (a stop that was not clean) are `local`'s latest.
  const loggedLocal = logged.flatMap((r) => {
    const c = configs.get(r.monitor_id);
    return c && byQuorum(c) && c.locations.includes(LOCAL_NAME) ? [{ ...r, name: LOCAL_NAME }] : [];
  });
  const [tracks, localTracks] = await Promise.all([reads.tracks, reads.localTracks]);
  d.votes.restore([...tracks, ...localTracks, ...loggedLocal], (id) => configs.get(id));
  return { monitors, now };
}

/**
 * An affected monitor's cause as its row stored it, while it still holds: the monitor is Down and
 * the cause's incident is open. Otherwise none, and reconcile() opens its own incident if it is Down.
 */
function restoredCause(
  s: StoredStateRow | undefined,
  status: MonitorStatus,
  incidents: IncidentBook,
): LiveMonitor['cause'] {
  if (!s || status !== 'down' || s.cause_monitor_id === null || s.cause_incident_id === null) return null;
  return incidents.openOf(s.cause_monitor_id)?.id === s.cause_incident_id
    ? { monitorId: s.cause_monitor_id, incidentId: s.cause_incident_id }
    : null;
}
