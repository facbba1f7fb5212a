/**
 * `depends_on` against what is stored (docs/dependencies.md): the refs of a body resolved to ids
 * and checked for unknown monitors, self-reference and cycles (depends-on-plan.ts, pure), in the
 * writing transaction so two writes that together would make a cycle cannot both pass; and a
 * deleted monitor taken out of its dependants' lists, each with its timeline line.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { actorName, Caller } from '../../common/access/caller';
import { ApiError } from '../../common/http/api-error';
import { Clock, CLOCK } from '../../common/clock';
import { EventsService } from '../../events/events.service';
import type { MonitorConfig } from '../../probes/monitor-config';
import { MonitorsRepository, StoredMonitor } from '../../catalog/monitors.repository';
import type { ParseResult } from '../monitor-input';
import { DependencyItem, DependencyPlan, planDependencies, StoredGraph } from './depends-on-plan';

@Injectable()
export class DependsOnService {
  constructor(
    private readonly repo: MonitorsRepository,
    private readonly events: EventsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async graphIn(m: EntityManager): Promise<StoredGraph> {
    const rows = await this.repo.dependencyRows(m);
    return {
      slugOf: new Map(rows.map((r) => [r.id, r.slug])),
      parentsOf: new Map(rows.map((r) => [r.id, r.parents])),
    };
  }

  async planIn(m: EntityManager, items: readonly DependencyItem[]): Promise<DependencyPlan> {
    return planDependencies(await this.graphIn(m), items);
  }

  /**
   * One monitor written alone (create, patch, replace by slug): sets `config.depends_on` to the
   * ids its refs name, or throws the 422 naming the field. Its slug is claimed already.
   */
  async resolveIn(m: EntityManager, parsed: Extract<ParseResult, { ok: true }>, selfId: number | null): Promise<void> {
    const plan = await this.planIn(m, [{ key: 0, slug: parsed.config.slug, id: selfId, refs: parsed.dependsOn }]);
    const errors = plan.errors.get(0);
    if (errors) throw ApiError.invalid(errors);
    parsed.config.depends_on = (plan.targets.get(0) ?? []).flatMap((t) => ('id' in t ? [t.id] : []));
  }

  /**
   * Takes a monitor being deleted out of every depends_on that names it, with a timeline line on
   * each dependant; answers the dependants' new configurations, to announce after the commit.
   */
  async dropIn(
    m: EntityManager,
    gone: StoredMonitor,
    caller: Caller | null,
  ): Promise<{ id: number; config: MonitorConfig }[]> {
    const out: { id: number; config: MonitorConfig }[] = [];
    const now = this.clock.now();
    for (const d of await this.repo.dependantsOf(m, gone.id)) {
      const config: MonitorConfig = { ...d.config, depends_on: d.config.depends_on.filter((p) => p !== gone.id) };
      await this.repo.update(m, d.id, config, now);
      await this.events.recordIn(m, {
        kind: 'monitor_updated',
        monitorId: d.id,
        text: `monitor "${d.config.name}" no longer depends on "${gone.config.name}", which was deleted`,
        actor: actorName(caller),
        data: { fields: ['depends_on'] },
      });
      out.push({ id: d.id, config });
    }
    return out;
  }
}
