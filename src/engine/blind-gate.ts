/**
 * Blind detection: when failures pile up (3 or more within 10 s across all monitors) or once a
 * minute while canaries are configured, the TCP canaries are probed. If none answers, the service
 * is blind: failed results are kept with a note and not counted until a probe succeeds again. The
 * blind period is a `blind` timeline line (a notice) when it starts and when it ends.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import type { CheckResult } from '../probes/check-result';
import { anyCanaryReachable } from './canaries';

export const PILE_UP_FAILURES = 3;
export const PILE_UP_WINDOW_MS = 10_000;
export const PROBE_EVERY_MS = 60_000;
export const BLIND_NOTE = 'not counted: the service itself was offline (no canary reachable)';

@Injectable()
export class BlindGate implements OnApplicationShutdown {
  private failures: number[] = [];
  private probing: Promise<void> | null = null;
  private lastProbe = -Infinity;
  private blindSince: number | null = null;
  private readonly log = new Logger('blind');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: EventsService,
    private readonly bus: EventBus,
  ) {}

  get enabled(): boolean {
    return this.config.canaries.length > 0;
  }

  status(): { active: boolean; since: number | null } {
    return { active: this.blindSince !== null, since: this.blindSince };
  }

  /** Decides whether a result counts; may start a canary probe in the background. */
  judge(result: CheckResult, now: number): { counted: boolean; note: string | null } {
    if (!this.enabled) return { counted: true, note: null };
    if (result.outcome === 'down') {
      this.failures.push(now);
      while (this.failures.length && this.failures[0] < now - PILE_UP_WINDOW_MS) this.failures.shift();
      if (this.failures.length >= PILE_UP_FAILURES && now - this.lastProbe >= PILE_UP_WINDOW_MS) void this.probe();
    }
    if (now - this.lastProbe >= PROBE_EVERY_MS) void this.probe();
    if (this.blindSince !== null && result.outcome === 'down') return { counted: false, note: BLIND_NOTE };
    return { counted: true, note: null };
  }

  /** Probes the canaries now (one probe at a time) and opens or closes the blind period. */
  probe(): Promise<void> {
    if (this.probing) return this.probing;
    this.lastProbe = this.clock.now();
    this.probing = anyCanaryReachable(this.config.canaries)
      .then((reachable) => this.settle(reachable))
      .catch((err: unknown) => this.log.warn(`canary probe failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  private async settle(reachable: boolean): Promise<void> {
    const now = this.clock.now();
    if (!reachable && this.blindSince === null) {
      this.blindSince = now;
      this.log.warn('no canary is reachable: failed checks are not counted until the network is back');
      await this.events.record({ kind: 'blind', at: now, actor: 'system', text: 'The service went offline: no canary was reachable, failures are not counted', data: { active: true } });
      this.bus.emit('blind', { active: true, since: now });
    } else if (reachable && this.blindSince !== null) {
      const since = this.blindSince;
      this.blindSince = null;
      this.log.log('a canary is reachable again: checks count again');
      await this.events.record({ kind: 'blind', at: now, actor: 'system', text: `The service is online again after ${Math.round((now - since) / 1000)} s offline`, data: { active: false, since } });
      this.bus.emit('blind', { active: false, since });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probing;
  }
}
