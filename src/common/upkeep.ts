/**
 * The service's periodic upkeep (pruning old rows), on plain timers: every N milliseconds, or once
 * a day at a local time of day. Replaces @nestjs/schedule, whose start-up scan of every provider's
 * methods and cron parsing (luxon, Intl time zones) took about 35 ms of each start for three jobs.
 *
 * Jobs start when the application has bootstrapped and stop when it shuts down (the owning
 * service calls start() and stop() from its lifecycle hooks). A run that fails is logged and the
 * next one comes as planned; a run never overlaps the one before it (a slow prune is skipped, not
 * stacked). Timers are unref'd: upkeep alone never keeps a process alive.
 */
import { Logger } from '@nestjs/common';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The next moment after `now` whose local time (the process's time zone) is hour:minute. */
export function nextLocalTime(now: number, hour: number, minute: number): number {
  const at = new Date(now);
  at.setHours(hour, minute, 0, 0);
  if (at.getTime() > now) return at.getTime();
  // Tomorrow at the same wall-clock time: setDate keeps it right across a DST change.
  at.setDate(at.getDate() + 1);
  at.setHours(hour, minute, 0, 0);
  return at.getTime();
}

type When = { everyMs: number } | { dailyAt: { hour: number; minute: number } };

export class UpkeepJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly when: When,
    private readonly run: () => Promise<unknown>,
    private readonly log = new Logger('upkeep'),
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(due?: number): void {
    if (this.stopped) return;
    const now = Date.now();
    const at =
      due ??
      ('everyMs' in this.when
        ? now + this.when.everyMs
        : nextLocalTime(now, this.when.dailyAt.hour, this.when.dailyAt.minute));
    // Node caps a timer at about 24.8 days and may wake a little early: the job runs only once its time has come.
    this.timer = setTimeout(() => this.fire(at), Math.max(0, Math.min(at - now, DAY_MS)));
    this.timer.unref();
  }

  private fire(due: number): void {
    this.timer = null;
    if (Date.now() < due) {
      this.arm(due);
      return;
    }
    if (!this.running) {
      this.running = true;
      this.run()
        .catch((err: unknown) =>
          this.log.error(`${this.name} failed: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          this.running = false;
        });
    }
    this.arm();
  }
}
