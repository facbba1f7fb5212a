/**
 * GET /summary: counts by status, open incidents, the blind period, the measured check rate and the
 * groups and tags in use.
 */
import { Injectable } from '@nestjs/common';
import { toIso } from '../common/time';
import { MONITOR_STATUSES, MonitorStatus } from '../probes/status';
import { stateRows } from '../catalog/monitor-state.table';
import { Database } from '../db/database';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { BlindGate } from '../engine/blind/blind-gate';
import type { BlindDetection } from '../engine/blind/blind-rule';
import { EngineService } from '../engine/engine.service';

export interface SummaryDto {
  counts: Record<'total' | MonitorStatus, number>;
  open_incidents: number;
  /** `detection` is ours, beside the spec's fields: whether blind detection can work (src/engine/blind/blind-rule.ts). */
  blind: { active: boolean; since: string | null; detection: BlindDetection };
  checks_per_min: number;
  groups: string[];
  tags: string[];
}

@Injectable()
export class SummaryService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly engine: EngineService,
    private readonly blind: BlindGate,
  ) {}

  async get(): Promise<SummaryDto> {
    const counts = Object.fromEntries([['total', 0], ...MONITOR_STATUSES.map((s) => [s, 0])]) as SummaryDto['counts'];
    let openIncidents = 0;
    for (const row of await stateRows(this.db)) {
      const s = this.engine.stateOf(row.monitor_id) ?? row;
      counts[s.status] += 1;
      counts.total += 1;
      if (s.incident_id !== null) openIncidents += 1;
    }
    const { groups, tags } = await this.repo.groupsAndTags();
    const blind = this.blind.status();
    return {
      counts,
      open_incidents: openIncidents,
      blind: { active: blind.active, since: toIso(blind.since), detection: blind.detection },
      checks_per_min: this.engine.checksPerMinute(),
      groups,
      tags,
    };
  }
}
