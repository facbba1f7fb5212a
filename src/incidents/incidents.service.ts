/**
 * The incident routes: lists and single incidents read from the incidents table, with the
 * engine's open incidents laid over them (their failure count and latest error move with every
 * check, and one opened less than a write ago is not on disk yet); PATCH stores the owner's
 * acknowledgement and note with a timeline line saying who did it.
 */
import { affectedOf } from '../events/incident-affected.table';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/http/api-error';
import { Caller, actorName } from '../common/access/caller';
import { parseId } from '../common/validation/ids';
import { CLOCK, Clock } from '../common/clock';
import { ID_CURSOR, Page, pageQuery, toPage } from '../common/http/paging';
import { toIso } from '../common/time';
import { Database } from '../db/database';
import { EngineService } from '../engine/engine.service';
import { RUN_KINDS } from '../engine/journal/incident-book';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { IncidentAnswer, IncidentRow, toIncidentAnswer } from '../events/incident';
import { incidentById, listIncidents, setAcknowledgementIn } from '../events/incidents.table';
import { HistoryService } from '../history/history.service';
import { CheckResultDto } from '../probes/check-result';
import { CheckWriter } from '../history/writer';
import { applyIncidentPatch, IncidentFilter, incidentFilter, parseIncidentPatch } from './incident-input';

/** The single-incident answer's `checks`: its latest failed checks. */
export const INCIDENT_CHECKS = 200;

export interface IncidentDetail extends IncidentAnswer {
  checks: CheckResultDto[];
  timeline: { at: string; kind: string; text: string }[];
}

@Injectable()
export class IncidentsService {
  constructor(
    private readonly db: Database,
    private readonly engine: EngineService,
    private readonly history: HistoryService,
    private readonly writer: CheckWriter,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /incidents: newest first. */
  async list(query: Record<string, unknown>): Promise<Page<IncidentAnswer>> {
    const filter = incidentFilter(query);
    const { limit, before } = pageQuery(query, ID_CURSOR);
    // The engine may have ended some that the table still shows open (written within a second).
    const endedUnwritten = this.engine.incidents.endedWaiting();
    const stored = await listIncidents(this.db, { ...filter, endedUnwritten, before, limit: limit + 1 });
    // Incidents opened less than a write ago have the highest ids: they lead the first pages.
    const seen = new Set(stored.map((r) => r.id));
    const fresh = this.engine.incidents
      .unwrittenRows()
      .filter((r) => !seen.has(r.id) && (before === null || r.id < before) && matches(r, filter));
    const rows = [...fresh, ...stored.map((r) => this.live(r))].sort((a, b) => b.id - a.id).slice(0, limit + 1);
    const now = this.clock.now();
    const page = toPage(
      rows,
      limit,
      (r) => toIncidentAnswer(r, now),
      (r) => ID_CURSOR.format(r.id),
    );
    const affected = await affectedOf(
      this.db,
      page.items.map((i) => i.id),
    );
    return { ...page, items: page.items.map((i) => ({ ...i, affected: affected.get(i.id) ?? [] })) };
  }

  /** GET /incidents/{id}: the incident with its latest failed checks and its timeline. */
  async get(ref: string): Promise<IncidentDetail> {
    const { row, written } = await this.find(ref);
    const [checks, timeline, affected] = await Promise.all([
      this.history.failedChecks(row.monitor_id, row.started_at, row.ended_at, INCIDENT_CHECKS),
      this.timeline(row, written),
      affectedOf(this.db, [row.id]),
    ]);
    return { ...toIncidentAnswer(row, this.clock.now()), affected: affected.get(row.id) ?? [], checks, timeline };
  }

  /** PATCH /incidents/{id}: {acknowledged, note}. */
  async patch(ref: string, body: unknown, caller: Caller | null): Promise<IncidentAnswer> {
    const patch = parseIncidentPatch(body);
    let found = await this.find(ref);
    // Opened less than a write ago: put it on disk first, so the update has a row to change.
    if (!found.written) {
      await this.writer.flush();
      found = await this.find(ref);
    }
    const now = this.clock.now();
    const who = caller?.kind === 'key' ? `API key "${caller.name}"` : 'the owner';
    const row = found.row;
    const out = applyIncidentPatch(row, patch, who, now);
    if (out.line) {
      const line = out.line;
      await this.db.tx(async (m) => {
        await setAcknowledgementIn(m, row.id, out.acknowledged_at, out.note);
        await this.events.recordIn(m, {
          kind: line.kind,
          at: now,
          monitorId: row.monitor_id,
          incidentId: row.id,
          actor: actorName(caller),
          text: `${line.text} (incident ${row.id}, ${row.monitor_name})`,
          data: line.data,
        });
        // A first acknowledgement of an open incident reaches PagerDuty: queued with it, durable with it.
        if (row.acknowledged_at === null && out.acknowledged_at !== null && row.ended_at === null)
          await this.engine.acknowledgedIn(m, { incidentId: row.id, monitorId: row.monitor_id, who, at: now });
      });
      this.engine.alertsCommitted();
      this.engine.incidents.patched(row.id, { acknowledged_at: out.acknowledged_at, note: out.note });
    }
    const updated: IncidentRow = { ...row, acknowledged_at: out.acknowledged_at, note: out.note };
    if (out.line) this.bus.emit('incident', { incident: updated });
    const affected = await affectedOf(this.db, [row.id]);
    return { ...toIncidentAnswer(updated, now), affected: affected.get(row.id) ?? [] };
  }

  private async find(ref: string): Promise<{ row: IncidentRow; written: boolean }> {
    const id = parseId(ref, 'incident');
    const stored = await incidentById(this.db, id);
    if (stored) return { row: this.live(stored), written: true };
    const pending = this.engine.incidents.byId(id);
    if (pending && !pending.written) return pending;
    throw ApiError.notFound('incident');
  }

  /** An open incident as the engine holds it now (its count and latest error are newer than its row). */
  private live(stored: IncidentRow): IncidentRow {
    if (stored.ended_at !== null) return stored;
    const open = this.engine.incidents.byId(stored.id)?.row;
    if (!open) return stored;
    return {
      ...stored,
      fails: open.fails,
      last_error_code: open.last_error_code,
      last_error_message: open.last_error_message,
      ended_at: open.ended_at,
      end_reason: open.end_reason,
    };
  }

  /** Its lines in time order, those waiting for the next write included. */
  private async timeline(row: IncidentRow, written: boolean): Promise<IncidentDetail['timeline']> {
    // Until the incident is written, lines of its failure run do not carry its id yet.
    const rows = await this.events.incidentLines(
      row.id,
      written ? null : { monitorId: row.monitor_id, since: row.started_at, until: row.down_at, kinds: RUN_KINDS },
    );
    const lines = rows.map((r) => ({ at: r.at, kind: r.kind, text: r.text }));
    const pending = this.engine
      .pendingLines()
      .filter(
        (e) =>
          e.incidentId === row.id ||
          (!written &&
            e.monitorId === row.monitor_id &&
            !e.incidentId &&
            (e.at ?? 0) >= row.started_at &&
            (e.at ?? 0) <= row.down_at &&
            (RUN_KINDS as readonly string[]).includes(e.kind)),
      )
      .map((e) => ({ at: e.at ?? this.clock.now(), kind: e.kind, text: e.text }));
    // Stable: written lines first at equal times, then those waiting, in the order they came.
    return [...lines, ...pending]
      .sort((a, b) => a.at - b.at)
      .map((l) => ({ at: toIso(l.at), kind: l.kind, text: l.text }));
  }
}

function matches(r: IncidentRow, f: IncidentFilter): boolean {
  if (f.monitorId !== null && r.monitor_id !== f.monitorId) return false;
  if (f.state === 'open') return r.ended_at === null;
  if (f.state === 'closed') return r.ended_at !== null;
  return true;
}
