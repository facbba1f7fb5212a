/**
 * Blind detection: when failures pile up (3 or more within 10 s across all monitors) or once a
 * minute while canaries are configured, the TCP canaries are probed. The service is blind when
 * every canary that has answered since start fails now (blind-rule.ts): failed results are then
 * kept with a note and not counted until a canary answers again. The blind period is a `blind`
 * timeline line (a notice) when it starts and when it ends.
 *
 * When detection cannot work (canaries `off`, or none has answered since start), GET /summary says
 * so, and so do one `blind_detection` timeline line and a log line naming FARSIGHT_CANARIES.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import type { CheckResult } from '../../probes/check-result';
import { BlindDetection, blindVerdict } from './blind-rule';
import { Canary, canaryKey, probeCanaries } from './canaries';
import { canarySet } from './canary-set';

export const PILE_UP_FAILURES = 3;
export const PILE_UP_WINDOW_MS = 10_000;
export const PROBE_EVERY_MS = 60_000;
/** How old the canaries' last answer may be when a failure is judged: while seeing, and while blind. */
export const FRESH_MS = PILE_UP_WINDOW_MS;
export const FRESH_WHILE_BLIND_MS = 2_000;
export const BLIND_NOTE = 'not counted: the service itself was offline (no canary that had answered is reachable)';

/** A verdict of judge(). The two there are, made once (judge runs for every result). */
export interface GateVerdict {
  readonly counted: boolean;
  readonly note: string | null;
}
export const COUNTED: GateVerdict = Object.freeze({ counted: true, note: null });
const NOT_COUNTED_BLIND: GateVerdict = Object.freeze({ counted: false, note: BLIND_NOTE });
export const DETECTION_KIND = 'blind_detection';
const HOW_TO =
  'set FARSIGHT_CANARIES to host:port pairs this machine can reach, e.g. FARSIGHT_CANARIES=192.168.1.1:53,1.1.1.1:443 (your router and a public server)';

export interface BlindStatus {
  active: boolean;
  since: number | null;
  detection: BlindDetection;
}

@Injectable()
export class BlindGate implements OnApplicationBootstrap, OnApplicationShutdown {
  /** The configured canaries, plus the local gateway and resolvers when FARSIGHT_CANARIES is unset. */
  readonly canaries: readonly Canary[];
  private failures: number[] = [];
  private probing: Promise<void> | null = null;
  private lastProbe = -Infinity;
  /** When the last probe's answers were in. */
  private lastSettled = -Infinity;
  private blindSince: number | null = null;
  /** When the last blind period ended: a check that started before then ran (partly) blind. */
  private blindEndedAt = -Infinity;
  private everAnswered = new Set<string>();
  private detection: BlindDetection;
  /** The detection state the newest `blind_detection` line states (undefined: not read yet). */
  private noticed: BlindDetection | null | undefined;
  private readonly log = new Logger('blind');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: EventsService,
    private readonly bus: EventBus,
  ) {
    this.canaries = canarySet(config);
    this.detection = this.canaries.length ? 'pending' : 'off';
  }

  get enabled(): boolean {
    return this.canaries.length > 0;
  }

  status(): BlindStatus {
    return { active: this.blindSince !== null, since: this.blindSince, detection: this.detection };
  }

  /** Each canary (`1.1.1.1:443`) and whether it has answered since start (diagnostics). */
  canaryStates(): { canary: string; answered: boolean }[] {
    return this.canaries.map((c) => ({ canary: canaryKey(c), answered: this.everAnswered.has(canaryKey(c)) }));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.enabled) {
      this.log.log(`blind detection: canaries ${this.canaries.map(nameOf).join(', ')}`);
      return;
    }
    this.log.log(
      `blind detection is off (FARSIGHT_CANARIES=off): failed checks count even while this machine has lost its network; to turn it on, ${HOW_TO}`,
    );
    await this.notice(
      'off',
      'Blind detection is off (FARSIGHT_CANARIES=off): failed checks count even while this machine has lost its network',
    );
  }

  /**
   * Decides whether a result counts; may start a canary probe in the background. A failure is not
   * counted while the service is blind, nor when its check started before the blind period ended:
   * a connection tried while the network was gone times out after it is back (found by
   * test/faults/uplink.e2e-spec.ts: every monitor failing, and one with confirm_after 1 Down, at
   * the moment the network returned).
   */
  judge(result: CheckResult, now: number): GateVerdict {
    if (!this.enabled) return COUNTED;
    if (result.outcome === 'down') {
      this.failures.push(now);
      while (this.failures.length && this.failures[0] < now - PILE_UP_WINDOW_MS) this.failures.shift();
      if (this.failures.length >= PILE_UP_FAILURES && now - this.lastProbe >= PILE_UP_WINDOW_MS) void this.probe();
    }
    if (now - this.lastProbe >= PROBE_EVERY_MS) void this.probe();
    if (result.outcome === 'down' && (this.blindSince !== null || result.at_ms < this.blindEndedAt))
      return NOT_COUNTED_BLIND;
    return COUNTED;
  }

  /**
   * Before a failed check is judged: makes sure the canaries were asked within FRESH_MS (2 s while
   * blind), or after `answeredSince` (the check's start, for a failure that would confirm Down),
   * waiting for a probe if not. Without it the first failures after a cut were judged on
   * an old answer and counted (a monitor with confirm_after 1 went Down before the pile-up probe
   * was back), and once the network returned a real failure went uncounted until the
   * once-a-minute probe ended the blind period (found by test/faults/uplink.e2e-spec.ts).
   */
  async freshen(now: number, answeredSince: number | null = null): Promise<void> {
    if (!this.enabled) return;
    // A failure that would confirm Down is judged on answers newer than its check: an answer from
    // before a cut, however recent, says nothing about the network the check failed on.
    const fresh =
      answeredSince !== null
        ? this.lastSettled >= answeredSince
        : now - this.lastSettled < (this.blindSince !== null ? FRESH_WHILE_BLIND_MS : FRESH_MS);
    if (fresh) return;
    await this.probe();
  }

  /** Probes the canaries now (one probe at a time) and opens or closes the blind period. */
  probe(): Promise<void> {
    if (this.probing) return this.probing;
    this.lastProbe = this.clock.now();
    this.probing = probeCanaries(this.canaries)
      .then((answers) => this.settle(answers))
      .catch((err: unknown) =>
        this.log.warn(`canary probe failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  /** Resolves once no probe is running (a probe started by judge() runs in the background). */
  async settled(): Promise<void> {
    while (this.probing) await this.probing;
  }

  private async settle(answers: boolean[]): Promise<void> {
    const now = this.clock.now();
    this.lastSettled = now;
    const v = blindVerdict(
      this.everAnswered,
      this.canaries.map((c, i) => ({ key: canaryKey(c), ok: answers[i] })),
    );
    this.everAnswered = new Set(v.everAnswered);
    await this.detect(v.detection);
    if (v.blind && this.blindSince === null) {
      this.blindSince = now;
      this.log.warn(
        `no canary that had answered is reachable (${v.lost.join(', ')}): failed checks are not counted until one answers again`,
      );
      await this.events.record({
        kind: 'blind',
        at: now,
        actor: 'system',
        text: `The service went offline: no canary that had answered is reachable (${v.lost.join(', ')}), failures are not counted`,
        data: { active: true, lost: v.lost },
      });
      this.bus.emit('blind', { active: true, since: now });
    } else if (!v.blind && this.blindSince !== null) {
      const since = this.blindSince;
      this.blindSince = null;
      this.blindEndedAt = now;
      this.log.log('a canary is reachable again: checks count again');
      await this.events.record({
        kind: 'blind',
        at: now,
        actor: 'system',
        text: `The service is online again after ${Math.round((now - since) / 1000)} s offline`,
        data: { active: false, since },
      });
      this.bus.emit('blind', { active: false, since });
    }
  }

  private async detect(detection: 'ok' | 'unavailable'): Promise<void> {
    const before = this.detection;
    this.detection = detection;
    if (detection === before) return;
    if (detection === 'unavailable') {
      const names = this.canaries.map(nameOf).join(', ');
      this.log.warn(
        `blind detection cannot work: no canary has answered since start (${names}), so if this machine loses its network every monitor goes Down; ${HOW_TO}, or FARSIGHT_CANARIES=off to turn detection off`,
      );
      await this.notice(
        'unavailable',
        `Blind detection cannot work: no canary has answered since start (${names}); failed checks count even if this machine loses its network. Set FARSIGHT_CANARIES to hosts this machine can reach.`,
      );
    } else {
      const answered = this.canaries
        .filter((c) => this.everAnswered.has(canaryKey(c)))
        .map(nameOf)
        .join(', ');
      const written = await this.notice('ok', `Blind detection works: ${answered} answered`);
      if (written || before === 'unavailable') this.log.log(`blind detection works: ${answered} answered`);
    }
  }

  /**
   * One `blind_detection` line per change of state, across restarts too: a restart does not repeat
   * it. `ok` is only worth a line when an earlier line said detection did not work.
   */
  private async notice(detection: BlindDetection, text: string): Promise<boolean> {
    const last = await this.lastNotice();
    if (last === detection || (detection === 'ok' && last === null)) return false;
    this.noticed = detection;
    await this.events.record({
      kind: DETECTION_KIND,
      at: this.clock.now(),
      actor: 'system',
      text,
      data: { detection },
    });
    return true;
  }

  private async lastNotice(): Promise<BlindDetection | null> {
    if (this.noticed === undefined) {
      const data = await this.events.latestData(DETECTION_KIND);
      let last: BlindDetection | null = null;
      try {
        last = data ? ((JSON.parse(data) as { detection?: BlindDetection }).detection ?? null) : null;
      } catch {
        // A damaged line only means the next one is written again.
      }
      this.noticed ??= last;
    }
    return this.noticed ?? null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }
}

function nameOf(c: Canary): string {
  return c.role ? `${c.role} ${canaryKey(c)}` : canaryKey(c);
}
