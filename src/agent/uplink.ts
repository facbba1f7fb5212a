/**
 * Is the agent's own network gone? The service's rule (engine/blind/blind-rule.ts): blind when every
 * canary that has answered since start fails now, probed with the same TCP canaries
 * (engine/blind/canaries.ts) from the same list (FARSIGHT_CANARIES, else the defaults plus the local
 * gateway and resolvers: engine/blind/canary-set.ts). A failed check made while blind, or started
 * before the blind period ended, is sent marked blind: the service stores it, but it is not a Down
 * vote (docs/agents.md).
 *
 * When: once a minute, and before a failure is judged if the last answers are older than 10 s (2 s
 * while blind), as the service's gate does (engine/blind/blind-gate.ts `freshen`).
 */
import type { Clock } from '../common/clock';
import { blindVerdict } from '../engine/blind/blind-rule';
import { type Canary, canaryKey, probeCanaries } from '../engine/blind/canaries';
import type { CheckResult } from '../probes/check-result';
import type { AgentLog } from './agent-log';

export const PROBE_EVERY_MS = 60_000;
export const FRESH_MS = 10_000;
export const FRESH_WHILE_BLIND_MS = 2_000;

export type Prober = (canaries: readonly Canary[]) => Promise<boolean[]>;

export class Uplink {
  private everAnswered = new Set<string>();
  private blindSince: number | null = null;
  private blindEndedAt = -Infinity;
  private lastSettled = -Infinity;
  private probing: Promise<void> | null = null;
  private warnedUnavailable = false;

  constructor(
    private readonly canaries: readonly Canary[],
    private readonly clock: Clock,
    private readonly log: AgentLog,
    private readonly prober: Prober = (c) => probeCanaries(c),
  ) {}

  get enabled(): boolean {
    return this.canaries.length > 0;
  }

  get blind(): boolean {
    return this.blindSince !== null;
  }

  /**
   * Whether a result is to be sent as blind (not a vote). Only failures are: an answer that came
   * back proves the path worked. Probes first when the canaries' answers are stale.
   */
  async judge(result: CheckResult): Promise<boolean> {
    const known = this.judgeAtOnce(result);
    if (known !== null) return known;
    await this.probe();
    return this.blindSince !== null || result.at_ms < this.blindEndedAt;
  }

  /**
   * judge() when it needs no probe first (most results: every success, and failures while the
   * canaries' answers are fresh), else null. Synchronous, so the agent hands such a result on
   * without a promise per check. Starts the periodic probe when it is due.
   */
  judgeAtOnce(result: CheckResult): boolean | null {
    if (!this.enabled) return false;
    const now = this.clock.now();
    if (now - this.lastSettled >= PROBE_EVERY_MS) void this.probe();
    if (result.outcome !== 'down') return false;
    // Answers from before the check started say nothing about the network it failed on.
    const fresh =
      this.lastSettled >= result.at_ms &&
      now - this.lastSettled < (this.blindSince !== null ? FRESH_WHILE_BLIND_MS : FRESH_MS);
    return fresh ? this.blindSince !== null || result.at_ms < this.blindEndedAt : null;
  }

  /** Probes the canaries (one probe at a time) and opens or closes the blind period. */
  probe(): Promise<void> {
    if (!this.enabled) return Promise.resolve();
    this.probing ??= this.prober(this.canaries)
      .then((answers) => this.settle(answers))
      .catch((err: unknown) =>
        this.log.warn(`canary probe failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  private settle(answers: boolean[]): void {
    const now = this.clock.now();
    this.lastSettled = now;
    const v = blindVerdict(
      this.everAnswered,
      this.canaries.map((c, i) => ({ key: canaryKey(c), ok: answers[i] === true })),
    );
    this.everAnswered = new Set(v.everAnswered);
    if (v.detection === 'unavailable' && !this.warnedUnavailable) {
      this.warnedUnavailable = true;
      this.log.warn(
        `blind detection cannot work yet: no canary has answered (${this.canaries.map(canaryKey).join(', ')}); set FARSIGHT_CANARIES to host:port pairs this machine can reach, or off`,
      );
    }
    if (v.blind && this.blindSince === null) {
      this.blindSince = now;
      this.log.warn(
        `this agent is blind: no canary that had answered is reachable (${v.lost.join(', ')}); failed checks are sent as not counted until one answers again`,
      );
    } else if (!v.blind && this.blindSince !== null) {
      this.log.info(
        `a canary is reachable again after ${Math.round((now - this.blindSince) / 1000)} s: checks count again`,
      );
      this.blindSince = null;
      this.blindEndedAt = now;
    }
  }
}
