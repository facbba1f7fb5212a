/**
 * Retention: once a day, raw checks older than checks_days, hourly rollups older than hourly_days
 * and timeline lines older than events_days are removed; daily rollups are kept 400 days (the
 * uptime and 12-month views). Probe locations' results and rollups keep the same ages. Deletes run monitor by monitor and in small batches, each its own
 * short transaction, so the writer is never held up for long. No VACUUM: SQLite reuses the pages.
 */
import { pruneLocationResultsIn } from '../catalog/location-results.table';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { UpkeepJob } from '../common/upkeep';
import { monitorIds } from '../catalog/monitors.repository';
import { Database } from '../db/database';
import { deleteEventsBeforeIn } from '../events/events.service';
import { SettingsService } from '../settings/settings.service';
import { DAY_MS, dayIndex, HOUR_MS } from './rollup-math';
import { LOCATION_ROLLUP_TABLES } from './locations/location-accounting';

export const DAILY_KEEP_DAYS = 400;
const EVENT_BATCH = 2000;

export interface RetentionReport {
  checks: number;
  hours: number;
  days: number;
  events: number;
}

@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('retention');
  /** Every night at 03:30, the service's local time. */
  private readonly job = new UpkeepJob('retention', { dailyAt: { hour: 3, minute: 30 } }, () => this.nightly());
  private running: Promise<RetentionReport> | null = null;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  onApplicationShutdown(): void {
    this.job.stop();
  }

  async nightly(): Promise<void> {
    const r = await this.run();
    this.log.log(
      `removed ${r.checks} checks, ${r.hours} hourly and ${r.days} daily rollups, ${r.events} timeline lines`,
    );
  }

  /** Prunes now (one run at a time). */
  run(): Promise<RetentionReport> {
    this.running ??= this.prune().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async prune(): Promise<RetentionReport> {
    const now = this.clock.now();
    const s = await this.settings.get();
    const ids = await monitorIds(this.db);
    const report: RetentionReport = { checks: 0, hours: 0, days: 0, events: 0 };
    const checksBefore = now - s.retention.checks_days * DAY_MS;
    const hoursBefore = Math.floor((now - s.retention.hourly_days * DAY_MS) / HOUR_MS);
    const daysBefore = dayIndex(now, s.tz_offset_min) - DAILY_KEEP_DAYS;
    for (const id of ids) {
      report.checks += await this.remove('DELETE FROM checks WHERE monitor_id = ? AND at < ?', [id, checksBefore]);
      report.hours += await this.remove('DELETE FROM rollup_hour WHERE monitor_id = ? AND hour < ?', [id, hoursBefore]);
      report.days += await this.remove('DELETE FROM rollup_day WHERE monitor_id = ? AND day < ?', [id, daysBefore]);
      // Its locations' rollups (docs/agents.md) are kept as long as its own.
      report.hours += await this.remove(
        `DELETE FROM ${LOCATION_ROLLUP_TABLES.rollup_hour} WHERE monitor_id = ? AND hour < ?`,
        [id, hoursBefore],
      );
      report.days += await this.remove(
        `DELETE FROM ${LOCATION_ROLLUP_TABLES.rollup_day} WHERE monitor_id = ? AND day < ?`,
        [id, daysBefore],
      );
    }
    // Agents' results (docs/agents.md) are kept as long as checks, and go with their monitor.
    await this.db.tx((m) => pruneLocationResultsIn(m, checksBefore));
    // A batch stored while its monitor was being deleted may have left rollups behind: one seek per
    // monitor they name finds them, not a walk over every row.
    for (const table of Object.values(LOCATION_ROLLUP_TABLES))
      await this.remove(
        `WITH RECURSIVE ids(id) AS (
           SELECT (SELECT MIN(monitor_id) FROM ${table})
           UNION ALL SELECT (SELECT MIN(monitor_id) FROM ${table} WHERE monitor_id > ids.id) FROM ids WHERE ids.id IS NOT NULL)
         DELETE FROM ${table} WHERE monitor_id IN (SELECT id FROM ids WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM monitors))`,
        [],
      );
    const eventsBefore = now - s.retention.events_days * DAY_MS;
    for (;;) {
      const n = await this.db.tx((m) => deleteEventsBeforeIn(m, eventsBefore, EVENT_BATCH));
      report.events += n;
      if (n < EVENT_BATCH) break;
    }
    return report;
  }

  private async remove(sql: string, params: unknown[]): Promise<number> {
    return this.db.tx(async (m) => {
      await m.query(sql, params);
      const [{ n }] = await m.query<{ n: number }[]>('SELECT changes() AS n');
      return n;
    });
  }
}
