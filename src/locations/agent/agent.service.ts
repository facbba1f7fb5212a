/**
 * The agent routes (docs/agents.md, "Agent protocol v1"): the long-polled configuration of a
 * location, and results in batches. A batch's results, their part of the location's hourly and
 * daily rollups (src/history/locations/location-rollups.ts), the location's acked seq and its contact
 * commit in one transaction before the answer names that seq (durable before acknowledged); only
 * then do counted results reach the engine, which announces what they change after its own commit.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../common/clock';
import { toIso } from '../../common/time';
import { Database } from '../../db/database';
import { EngineService } from '../../engine/engine.service';
import { SettingsService } from '../../settings/settings.service';
import { checkRow } from '../../history/check-row';
import type { KindSettings, MonitorKind } from '../../probes/kinds';
import type { CheckResult } from '../../probes/check-result';
import { LocationRow, setAckedSeqIn, touchLocationIn } from '../../catalog/locations.table';
import { insertLocationResultsIn, LocationResultRow } from '../../catalog/location-results.table';
import { LocationRollupsService } from '../../history/locations/location-rollups';
import { BLIND_NOTE } from '../../history/locations/location-accounting';
import { LocationBook } from '../location-book';
import { FUTURE_MS, parseCheckResult, parseConfigQuery, parseResultsBody } from './agent-input';
import { locationOfToken } from './agent-auth';

type ResultsBody = ReturnType<typeof parseResultsBody>;

export interface AgentMonitor {
  id: number;
  slug: string;
  name: string;
  kind: MonitorKind;
  interval_s: number;
  timeout_ms: number;
  retry_interval_s: number;
  slow_ms: number | null;
  config: KindSettings[MonitorKind];
}

export interface AgentConfig {
  revision: string;
  location: { id: number; name: string };
  server_time: string;
  allow_private_targets: boolean;
  monitors: AgentMonitor[];
}

export interface ResultsAnswer {
  acked_seq: number;
  stored: number;
  ignored: { seq: number; reason: string }[];
}

/** A result older than this many intervals at receipt is history only: it moves no state. */
export const STALE_INTERVALS = 2;

/** The agent's version from `User-Agent: farsight-agent/<version>`, else null. */
export function versionOf(userAgent: string | undefined): string | null {
  const m = /^farsight-agent\/([\w.+-]{1,40})\b/.exec(userAgent ?? '');
  return m ? m[1] : null;
}

@Injectable()
export class AgentService {
  constructor(
    private readonly db: Database,
    private readonly book: LocationBook,
    private readonly engine: EngineService,
    private readonly settings: SettingsService,
    private readonly rollups: LocationRollupsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    // A location's result holds as long as the service's own check would (rollup-math.ts).
    rollups.useCap((id) => engine.capOf(id));
  }

  /** GET /api/agent/config: the monitors now, or null (204) when the revision held is still current after the wait. */
  async config(
    loc: LocationRow,
    query: Record<string, unknown>,
    contact: { version: string | null; address: string | null },
    token: string,
  ): Promise<AgentConfig | null> {
    const { revision, waitMs } = parseConfigQuery(query);
    await this.book.contact(loc.id, { at: this.clock.now(), ...contact });
    if (revision === this.book.revisionOf(loc.id) && waitMs > 0) {
      await this.book.waitForChange(loc.id, waitMs);
      // A rotation or a deletion while the poll waited: the token held is no longer good.
      if ((await locationOfToken(this.db, token)) === null) return null;
    }
    if (revision === this.book.revisionOf(loc.id)) return null;
    return this.build(loc);
  }

  private async build(loc: LocationRow): Promise<AgentConfig> {
    const settings = await this.settings.get();
    const monitors: AgentMonitor[] = [];
    for (const id of this.book.monitorsOf(loc.id).sort((a, b) => a - b)) {
      const c = this.engine.configOf(id);
      if (!c || c.paused || c.kind === 'heartbeat') continue;
      monitors.push({
        id,
        slug: c.slug,
        name: c.name,
        kind: c.kind,
        interval_s: c.interval_s,
        timeout_ms: c.timeout_ms,
        retry_interval_s: c.retry_interval_s,
        slow_ms: c.slow_ms,
        config: c.settings,
      });
    }
    return {
      revision: this.book.revisionOf(loc.id),
      location: { id: loc.id, name: this.book.nameOf(loc.id) ?? loc.name },
      server_time: toIso(this.clock.now()),
      allow_private_targets: settings.allow_private_targets,
      monitors,
    };
  }

  /** POST /api/agent/results. */
  async results(loc: LocationRow, body: unknown, address: string | null): Promise<ResultsAnswer> {
    const batch = parseResultsBody(body);
    const now = this.clock.now();
    const stored = await this.store(loc, batch, now, address);
    if (stored === null) return { acked_seq: 0, stored: 0, ignored: [] };
    await this.book.contact(loc.id, { at: now, version: batch.agent.version, address }, true);
    // Stored first (above), judged after: what the votes change commits with the writer's next
    // transaction before it is announced (engine/journal/journal.ts), like any check's.
    const name = this.book.nameOf(loc.id) ?? loc.name;
    for (const c of stored.counted) this.engine.locations.remote(c.monitorId, name, c.result, true);
    return stored.answer;
  }

  /**
   * One transaction: the batch's results, their part of the location's rollups, the acked seq
   * and the contact. null when the location was deleted meanwhile.
   */
  private async store(
    loc: LocationRow,
    batch: ResultsBody,
    now: number,
    address: string | null,
  ): Promise<{ answer: ResultsAnswer; counted: { monitorId: number; result: CheckResult }[] } | null> {
    return this.db.tx(async (m) => {
      // Read in the transaction: two batches of one agent at once are told the truth.
      const acked = (
        (await m.query('SELECT acked_seq FROM locations WHERE id = ?', [loc.id])) as { acked_seq: number }[]
      )[0]?.acked_seq;
      if (acked === undefined) return null;
      const rows: LocationResultRow[] = [];
      const ignored: ResultsAnswer['ignored'] = [];
      const counted: { monitorId: number; result: CheckResult }[] = [];
      let top = acked;
      for (const item of batch.results) {
        if (item.seq <= acked) continue;
        top = item.seq;
        const why = this.refusal(loc.id, item.monitor_id, item.at, now);
        const result = why === null ? parseCheckResult(item.result, item.at) : why;
        if (typeof result === 'string') {
          ignored.push({ seq: item.seq, reason: result });
          continue;
        }
        const note = this.historyOnly(item.monitor_id, item.at, now, batch.agent.blind);
        const windowId = this.windowOf(item.monitor_id, item.at, !this.stale(item.monitor_id, item.at, now));
        rows.push({ ...checkRow(result, item.monitor_id, note, windowId), location_id: loc.id });
        if (note === null) counted.push({ monitorId: item.monitor_id, result });
      }
      // The rollups first: a tail not in memory is read back from the results stored before these.
      await this.rollups.accountIn(m, loc.id, rows);
      await insertLocationResultsIn(m, rows);
      if (top > acked) await setAckedSeqIn(m, loc.id, top);
      await touchLocationIn(m, loc.id, { at: now, version: batch.agent.version, address });
      return { answer: { acked_seq: top, stored: rows.length, ignored }, counted };
    });
  }

  /**
   * The maintenance window that held the monitor when the result was made (uptime leaves its time
   * out, docs/maintenance.md): for a fresh result (a few seconds old), the window holding the
   * monitor now, as for the service's own checks; for one that came late, the window whose
   * schedule held its time.
   */
  private windowOf(monitorId: number, at: number, fresh: boolean): number | null {
    const book = this.engine.maintenance;
    return (fresh ? book.markOf(monitorId) : book.markAt(monitorId, at))?.window_id ?? null;
  }

  /** Why a result cannot be stored at all, or null. */
  private refusal(location: number, monitorId: number, at: number, now: number): string | null {
    const a = this.book.assignmentOf(monitorId);
    if (!a || !a.locations.includes(location) || !a.sent)
      return 'the monitor is not assigned to this location (deleted, paused, moved, or a heartbeat)';
    if (at > now + FUTURE_MS)
      return "the result is from the future (more than 60 s ahead of the service): check the agent's clock";
    return null;
  }

  /** Why a stored result does not count (history only), or null when it is a vote. */
  private historyOnly(monitorId: number, at: number, now: number, blind: boolean): string | null {
    if (blind) return BLIND_NOTE;
    if (this.stale(monitorId, at, now))
      return `not counted: it arrived late (more than ${STALE_INTERVALS} intervals after the check)`;
    return null;
  }

  /** Whether a result is older than STALE_INTERVALS of its monitor's interval at receipt. */
  private stale(monitorId: number, at: number, now: number): boolean {
    const interval = this.book.assignmentOf(monitorId)?.interval_s ?? 0;
    return now - at > STALE_INTERVALS * interval * 1000;
  }
}
