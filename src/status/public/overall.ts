/**
 * The overall status of the public page or of one of its sections (docs/status-page.md): no
 * service down or slow = operational; some slow, none down = degraded; some down but fewer than
 * half = partial_outage; half or more down = major_outage. Paused services are not watched, so
 * they count neither way: "half" is half of the services that are watched. Pure.
 */
import type { MonitorStatus } from '../../probes/status';

export const OVERALL = ['operational', 'degraded', 'partial_outage', 'major_outage'] as const;
export type Overall = (typeof OVERALL)[number];

export function overallOf(statuses: readonly MonitorStatus[]): Overall {
  const watched = statuses.filter((s) => s !== 'paused');
  const down = watched.filter((s) => s === 'down').length;
  if (down === 0) return watched.some((s) => s === 'slow') ? 'degraded' : 'operational';
  return down * 2 >= watched.length ? 'major_outage' : 'partial_outage';
}

/** The headline people read for each overall status. */
export const OVERALL_TEXT: Record<Overall, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};
