/**
 * What the public page is drawn from, read with queries that select public columns only: a
 * monitor's public name and section (falling back to its name and group, as the spec says), its
 * sort, creation time and status; incidents' times. Targets, hosts, errors and settings are never
 * selected, so they cannot reach a page by mistake. Figures come from the history module's
 * rollups as they stand now (written rows, buffered results and open spans).
 *
 * Statuses and incidents are read from their tables, which the engine writes within a second of
 * a change; the page is cached for 30 s anyway.
 */
import { Injectable } from '@nestjs/common';
import { Database } from '../db/database';
import { quantile, Histogram, mergeInto } from '../history/latency-histogram';
import { RollupsService } from '../history/rollups.service';
import type { MonitorStatus } from '../probes/status';
import type { Tally } from './bars';
import type { RangePlan } from './periods';
import type { IncidentInput, ServiceInput } from './public-model';

interface ServiceRow {
  id: number;
  name: string;
  public_name: string | null;
  group_name: string | null;
  public_group: string | null;
  sort: number;
  created_at: number;
  paused: number;
  status: MonitorStatus | null;
}

/** A monitor's public settings as the draft of a preview may change them. */
export interface PublicOverride {
  public?: boolean;
  public_name?: string | null;
  public_group?: string | null;
  sort?: number;
}

export interface RangeData {
  tallies: Map<number, Map<number, Tally>>;
  typical: Map<number, number | null>;
}

@Injectable()
export class PublicData {
  constructor(
    private readonly db: Database,
    private readonly rollups: RollupsService,
  ) {}

  /** The public services; `overrides` (a preview's draft) may add, hide or rename some. */
  async services(overrides: Map<number, PublicOverride> = new Map()): Promise<ServiceInput[]> {
    const ids = [...overrides.keys()];
    const rows = (await this.db.query(
      `SELECT m.id, m.name, m.public_name, m.group_name, m.public_group, m.sort, m.created_at, m.paused, s.status, m.public
       FROM monitors m LEFT JOIN monitor_state s ON s.monitor_id = m.id
       WHERE m.public = 1${ids.length ? ` OR m.id IN (${ids.map(() => '?').join(', ')})` : ''}`,
      ids,
    )) as (ServiceRow & { public: number })[];
    return rows.flatMap((r): ServiceInput[] => {
      const o = overrides.get(r.id) ?? {};
      if (!(o.public ?? r.public === 1)) return [];
      const publicName = o.public_name !== undefined ? o.public_name : r.public_name;
      const publicGroup = o.public_group !== undefined ? o.public_group : r.public_group;
      return [
        {
          key: r.id,
          name: publicName ?? r.name,
          group: publicGroup ?? r.group_name,
          sort: o.sort ?? r.sort,
          watchedFrom: r.created_at,
          status: r.paused === 1 ? 'paused' : (r.status ?? 'unknown'),
        },
      ];
    });
  }

  /** Incidents of these services that were open at or after `since`. */
  async incidents(keys: number[], since: number): Promise<IncidentInput[]> {
    if (keys.length === 0) return [];
    const out: IncidentInput[] = [];
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      const rows = (await this.db.query(
        `SELECT monitor_id AS key, started_at, ended_at FROM incidents
         WHERE monitor_id IN (${part.map(() => '?').join(', ')}) AND (ended_at IS NULL OR ended_at >= ?)`,
        [...part, since],
      )) as IncidentInput[];
      out.push(...rows);
    }
    return out;
  }

  /** Incidents of these services that started in [from, to), oldest first excluded: newest first. */
  async incidentsBetween(keys: number[], from: number, to: number): Promise<IncidentInput[]> {
    if (keys.length === 0) return [];
    return (await this.db.query(
      `SELECT monitor_id AS key, started_at, ended_at FROM incidents
       WHERE monitor_id IN (${keys.map(() => '?').join(', ')}) AND started_at >= ? AND started_at < ?
       ORDER BY started_at DESC, id DESC`,
      [...keys, from, to],
    )) as IncidentInput[];
  }

  /** When the oldest incident of these services started, or null. */
  async firstIncident(keys: number[]): Promise<number | null> {
    if (keys.length === 0) return null;
    const rows = (await this.db.query(`SELECT MIN(started_at) AS t FROM incidents WHERE monitor_id IN (${keys.map(() => '?').join(', ')})`, keys)) as {
      t: number | null;
    }[];
    return rows[0]?.t ?? null;
  }

  /** The rollups a range's bars sum, and each service's median response time over the range. */
  async range(keys: number[], plan: RangePlan, now: number): Promise<RangeData> {
    const first = plan.periods[0].from;
    const last = plan.periods[plan.periods.length - 1].to;
    const accs = await this.rollups.read(plan.table, keys, first, last, now);
    const tallies = new Map<number, Map<number, Tally>>();
    const typical = new Map<number, number | null>();
    for (const key of keys) {
      const per = accs.get(key) ?? new Map();
      const hist: Histogram = {};
      for (const acc of per.values()) mergeInto(hist, acc.hist);
      tallies.set(key, per);
      typical.set(key, quantile(hist, 0.5));
    }
    return { tallies, typical };
  }
}
