/**
 * The last-alive mark and offline periods. While the service runs, one row is rewritten every
 * 30 s (never per check: a tiny transaction twice a minute), and once more on a clean stop. On
 * start, a gap between the mark and now longer than twice the interval is an `offline` timeline
 * line {from, to, clean} and an `offline` bus event (alerts send it as a notice). A planned stop is
 * offline time for the people who rely on the checks, so it is recorded too, with `clean: true`.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../../common/clock';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import { AliveMark, MARK_EVERY_MS, OfflinePeriod, offlineText, RestoreRecord, startFacts } from './offline-period';
import type { Timers } from '../scheduling/scheduler';

export interface StartInfo {
  /** The last moment the service is known to have run before this start; null on a first start. */
  stoppedAt: number | null;
  offline: OfflinePeriod | null;
  /** Set on the first start after `farsight restore` (its timeline line is already written). */
  restored: RestoreRecord | null;
}

@Injectable()
export class LastAliveService implements OnApplicationShutdown {
  private started: Promise<StartInfo> | null = null;
  private timers: Timers | null = null;
  private timer: unknown = null;
  private stopped = false;
  private readonly log = new Logger('alive');

  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Reads the mark left by the last run, records the offline period it shows and starts marking.
   * Once per run: the engine calls it before it schedules anything (heartbeats need `stoppedAt`).
   */
  start(timers: Timers): Promise<StartInfo> {
    this.timers = timers;
    this.started ??= this.begin();
    return this.started;
  }

  private async begin(): Promise<StartInfo> {
    const rows = await this.db.read<{ at: number; clean: number }[]>('SELECT at, clean FROM last_alive WHERE id = 1');
    const mark: AliveMark | null = rows[0] ? { at: rows[0].at, clean: rows[0].clean === 1 } : null;
    const now = this.clock.now();
    const facts = startFacts(mark, mark ? null : await this.restoreRecord(), now);
    const offline = facts.offline;
    await this.db.tx(async (tx) => {
      await tx.query(
        'INSERT INTO last_alive (id, at, clean) VALUES (1, ?, 0) ON CONFLICT (id) DO UPDATE SET at = excluded.at, clean = 0',
        [now],
      );
      if (offline)
        await this.events.recordIn(tx, {
          kind: 'offline',
          at: offline.to,
          actor: 'system',
          text: offlineText(offline),
          data: { ...offline },
        });
    });
    if (offline) {
      this.log.warn(offlineText(offline));
      this.bus.emit('offline', offline);
    }
    this.arm();
    return facts;
  }

  /**
   * Without a mark: the record `farsight restore` left in its `restored` line, when this is the
   * first start after a restore (restore removes the mark; every start writes one).
   */
  private async restoreRecord(): Promise<RestoreRecord | null> {
    const text = await this.events.latestData('restored');
    const data = text ? (JSON.parse(text) as Partial<RestoreRecord>) : null;
    if (!data) return null;
    const replaced =
      data.replaced && typeof data.replaced.at === 'number'
        ? { at: data.replaced.at, clean: data.replaced.clean === true }
        : null;
    return { backup_at: typeof data.backup_at === 'number' ? data.backup_at : null, replaced };
  }

  /** Rewrites the mark now (the timer does this every 30 s; tests with manual timers call it). */
  async mark(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    await this.db.tx((tx) => tx.query('UPDATE last_alive SET at = ?, clean = 0 WHERE id = 1', [now]));
  }

  private arm(): void {
    if (this.stopped || !this.timers) return;
    this.timer = this.timers.set(() => {
      this.mark()
        .catch((err: unknown) =>
          this.log.warn(`could not write the last-alive mark: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => this.arm());
    }, MARK_EVERY_MS);
  }

  /** A clean stop leaves a final mark, so the next start knows exactly when the service went away. */
  async onApplicationShutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timers && this.timer !== null) this.timers.clear(this.timer);
    if (!this.started) return;
    await this.started.catch(() => undefined);
    const now = this.clock.now();
    await this.db.tx((tx) => tx.query('UPDATE last_alive SET at = ?, clean = 1 WHERE id = 1', [now]));
  }
}
