// One day of the monitor page's uptime calendar (GET /monitors/{id}/uptime): its colour class and
// its words. Time in maintenance is in neither side of a day's uptime (docs/maintenance.md,
// "Uptime"); a day all in maintenance, or with half a day or more of it and under 1 % down outside
// it, is a maintenance day, in its own colour (a day bad outside its window stays bad, as on the
// status page). Pure.
import { duration, pct } from '../core/format.js';

const HALF_DAY_MS = 12 * 3_600_000;

/** 'ok', 'warn', 'bad', 'maint' or 'none'. */
export function dayClass(d) {
  const maint = d.maintenance_ms ?? 0;
  if (d.uptime === null) return maint > 0 ? 'maint' : 'none';
  if (d.uptime < 99) return 'bad';
  if (maint >= HALF_DAY_MS) return 'maint';
  return d.uptime >= 99.9 ? 'ok' : 'warn';
}

/** The day's words (its title): uptime, downtime and time in maintenance. */
export function dayTitle(d) {
  const maint = d.maintenance_ms ?? 0;
  const parts = [];
  if (d.uptime === null) parts.push(maint > 0 ? 'no uptime (all in maintenance)' : 'no checks');
  else parts.push(pct(d.uptime) + (maint > 0 ? ' up outside maintenance' : ''));
  if (d.down_ms) parts.push('down ' + duration(d.down_ms));
  if (maint > 0) parts.push('maintenance ' + duration(maint));
  return d.date + ': ' + parts.join(', ');
}
