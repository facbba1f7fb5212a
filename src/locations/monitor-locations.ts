/**
 * A location's rename or deletion as the monitors that list it see it: their `locations` change in
 * the same transaction, with a timeline line each, and their new configurations are announced
 * after the commit (the engine and the agents' assignments follow them).
 */
import type { EntityManager } from 'typeorm';
import type { MonitorConfig } from '../probes/monitor-config';
import { LOCAL_NAME } from '../catalog/locations.table';
import type { MonitorsRepository } from '../catalog/monitors.repository';
import type { EventsService } from '../events/events.service';

export interface Changed {
  id: number;
  config: MonitorConfig;
}

/** A monitor's locations without the deleted one: `local` when none is left; a quorum out of reach goes back to a majority. */
export function withoutLocation(c: MonitorConfig, name: string): Pick<MonitorConfig, 'locations' | 'quorum'> {
  const left = c.locations.filter((n) => n !== name);
  const locations = left.length > 0 ? left : [LOCAL_NAME];
  return { locations, quorum: c.quorum !== null && c.quorum > locations.length ? null : c.quorum };
}

/** Every monitor listing `name` in a form that changes: rewritten, with its line. */
export async function rewriteMonitorsIn(
  m: EntityManager,
  repo: MonitorsRepository,
  events: EventsService,
  name: string,
  change: (c: MonitorConfig) => Pick<MonitorConfig, 'locations' | 'quorum'>,
  text: (c: MonitorConfig) => string,
  actor: string,
  now: number,
): Promise<Changed[]> {
  const out: Changed[] = [];
  for (const s of await repo.listingLocationIn(m, name)) {
    const config: MonitorConfig = { ...s.config, ...change(s.config) };
    await repo.update(m, s.id, config, now);
    await events.recordIn(m, {
      kind: 'monitor_updated',
      monitorId: s.id,
      text: text(s.config),
      actor,
      data: { fields: config.quorum !== s.config.quorum ? ['locations', 'quorum'] : ['locations'] },
    });
    out.push({ id: s.id, config });
  }
  return out;
}
