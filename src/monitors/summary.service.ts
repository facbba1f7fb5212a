/**
 * GET /summary. Counts, groups and tags come from the monitors; open incidents, blind periods and
 * the measured check rate come from the check engine through SUMMARY_SOURCE (zero and inactive
 * while no checks have run, which is the truth until then).
 */
import { Inject, Injectable } from '@nestjs/common';
import { toIso } from '../common/time';
import { MONITOR_STATUSES, MonitorStatus } from './monitor-state';
import { MonitorsRepository } from './monitors.repository';

export interface SummaryDto {
  counts: Record<'total' | MonitorStatus, number>;
  open_incidents: number;
  blind: { active: boolean; since: string | null };
  checks_per_min: number;
  groups: string[];
  tags: string[];
}

export interface EngineSummary {
  openIncidents(): Promise<number>;
  blind(): { active: boolean; since: number | null };
  checksPerMinute(): number;
}

export const SUMMARY_SOURCE = Symbol('EngineSummary');

export const NO_ENGINE: EngineSummary = {
  openIncidents: async () => 0,
  blind: () => ({ active: false, since: null }),
  checksPerMinute: () => 0,
};

@Injectable()
export class SummaryService {
  constructor(
    private readonly repo: MonitorsRepository,
    @Inject(SUMMARY_SOURCE) private readonly engine: EngineSummary,
  ) {}

  async get(): Promise<SummaryDto> {
    const counts = Object.fromEntries([['total', 0], ...MONITOR_STATUSES.map((s) => [s, 0])]) as SummaryDto['counts'];
    for (const row of await this.repo.counts()) {
      if (row.status in counts) counts[row.status as MonitorStatus] = row.n;
      counts.total += row.n;
    }
    const { groups, tags } = await this.repo.groupsAndTags();
    const blind = this.engine.blind();
    return {
      counts,
      open_incidents: await this.engine.openIncidents(),
      blind: { active: blind.active, since: toIso(blind.since) },
      checks_per_min: this.engine.checksPerMinute(),
      groups,
      tags,
    };
  }
}
