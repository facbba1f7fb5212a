/**
 * The watchdog (docs/watchdog.md): while the service runs and is not blind, it GETs the owner's
 * dead-man URL (a Healthchecks check, say) every interval, so someone is told when this service
 * itself stops. Failures are shown in diagnostics with the last answer; they are never alerts
 * (the receiver's own alerting is what the watchdog is for).
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../../common/clock';
import { toIso } from '../../common/time';
import { SECRET_BOX, SecretBox } from '../../db/secret-box';
import { BlindGate } from '../../engine/blind/blind-gate';
import { ENGINE_TIMERS } from '../../engine/engine.service';
import type { Timers } from '../../engine/scheduling/scheduler';
import { SettingsService } from '../../settings/settings.service';
import { ping, PingResult, PING_TIMEOUT_MS } from './watchdog-ping';

/** While no watchdog is set, the settings are looked at this often (a change also wakes it at once). */
const IDLE_MS = 60_000;

export interface WatchdogAnswer {
  configured: boolean;
  interval_s: number | null;
  last_ping_at: string | null;
  last_ok_at: string | null;
  last_status: number | null;
  last_answer: string | null;
  last_error: string | null;
  failing_since: string | null;
  failures_in_row: number;
  /** The last time a ping was held back because the service was blind. */
  skipped_blind_at: string | null;
}

@Injectable()
export class WatchdogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('watchdog');
  private timer: unknown = null;
  private stopped = false;
  private running: Promise<void> | null = null;
  private last: (PingResult & { at: number }) | null = null;
  private lastOkAt: number | null = null;
  private failingSince: number | null = null;
  private failures = 0;
  private skippedAt: number | null = null;

  constructor(
    private readonly settings: SettingsService,
    private readonly blind: BlindGate,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ENGINE_TIMERS) private readonly timers: Timers,
  ) {}

  onApplicationBootstrap(): void {
    // The first ping a few seconds after the start: the service is up by then.
    this.schedule(5_000);
  }

  onApplicationShutdown(): Promise<void> | void {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    return this.running ?? undefined;
  }

  /** The watchdog setting changed: the next ping is now, and the figures start again. */
  changed(): void {
    this.last = null;
    this.lastOkAt = null;
    this.failingSince = null;
    this.failures = 0;
    this.schedule(0);
  }

  /** Pings once if a watchdog is set and the service is not blind, then plans the next (tests call it with manual timers). */
  tick(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  async status(): Promise<WatchdogAnswer> {
    const w = (await this.settings.get()).watchdog;
    return {
      configured: w !== null,
      interval_s: w?.interval_s ?? null,
      last_ping_at: toIso(this.last?.at ?? null),
      last_ok_at: toIso(this.lastOkAt),
      last_status: this.last?.status ?? null,
      last_answer: this.last?.answer ?? null,
      last_error: this.last?.error ?? null,
      failing_since: toIso(this.failingSince),
      failures_in_row: this.failures,
      skipped_blind_at: toIso(this.skippedAt),
    };
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => void this.tick(), ms);
  }

  private async run(): Promise<void> {
    const w = (await this.settings.get()).watchdog;
    if (!w) return this.schedule(IDLE_MS);
    const now = this.clock.now();
    // A blind service cannot reach the receiver anyway; and its silence is the truth then.
    if (this.blind.status().active) {
      this.skippedAt = now;
      return this.schedule(w.interval_s * 1000);
    }
    let url: string;
    try {
      url = this.box.open(w.url);
    } catch (err) {
      this.record(now, { ok: false, status: null, answer: null, error: String((err as Error).message), ms: 0 });
      return this.schedule(w.interval_s * 1000);
    }
    this.record(now, await ping(url, Math.min(PING_TIMEOUT_MS, (w.interval_s * 1000) / 2)));
    this.schedule(w.interval_s * 1000);
  }

  private record(at: number, r: PingResult): void {
    this.last = { ...r, at };
    if (r.ok) {
      this.lastOkAt = at;
      this.failingSince = null;
      this.failures = 0;
      return;
    }
    this.failures += 1;
    this.failingSince ??= at;
    // Logged once when failing starts (diagnostics show the rest); never an alert.
    if (this.failures === 1) this.log.warn(`watchdog ping failed: ${r.error}`);
  }
}
