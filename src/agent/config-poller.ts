/**
 * The agent's view of its assignment: `GET /api/agent/config` as a long poll (the service answers
 * at once when the revision differs, else holds the request up to wait_s and answers 204), so a
 * monitor added, edited, paused, deleted or reassigned reaches the agent within a second or two.
 * A failure (service down, token refused, an answer that does not fit) keeps the monitors the agent
 * has and retries after a jittered, capped backoff; each kind of failure is logged once, not at
 * every try.
 */
import type { Clock } from '../common/clock';
import type { Timers } from '../engine/scheduling/scheduler';
import type { AgentLog } from './agent-log';
import { Backoff, retryAfterOf } from './backoff';
import type { Assignment } from './protocol';

export const POLL_WAIT_S = 25;
/** The service's clock this far from ours makes `at` times misleading: worth a warning. */
const SKEW_WARN_MS = 60_000;

export interface ConfigSource {
  config(revision: string | null, waitS: number): Promise<Assignment | null>;
}

export interface ConfigPollerOptions {
  source: ConfigSource;
  clock: Clock;
  timers: Timers;
  log: AgentLog;
  apply: (a: Assignment) => { added: number; changed: number; removed: number };
  random?: () => number;
  /** Called when a poll answers after failing: the service is reachable again (agent.ts wakes the shipper). */
  onReachable?: () => void;
}

export class ConfigPoller {
  private revision: string | null = null;
  private stopped = false;
  private readonly backoff: Backoff;
  private wake: (() => void) | null = null;
  private failing: string | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly o: ConfigPollerOptions) {
    this.backoff = new Backoff(o.random);
  }

  get currentRevision(): string | null {
    return this.revision;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Ends the loop; a poll in flight is left to the caller to cut (closing the client). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /**
   * The service was seen reachable another way (a POST of results went through): a poll waiting
   * out its backoff starts now, so a rotated token or a new assignment is heard at once.
   */
  retryNow(): void {
    if (this.failing !== null) this.wake?.();
  }

  /** One poll: applies a new assignment, answers whether one came. Throws what the source throws. */
  async once(waitS: number): Promise<boolean> {
    const a = await this.o.source.config(this.revision, waitS);
    if (this.stopped || a === null) return false;
    const d = this.o.apply(a);
    const first = this.revision === null;
    this.revision = a.revision;
    this.o.log.info(
      `${first ? 'assignment' : 'new assignment'} (revision ${a.revision}) for location "${a.location.name}": ${a.monitors.length} monitors (${d.added} added, ${d.changed} changed, ${d.removed} removed)`,
    );
    for (const s of a.skipped.slice(0, 20))
      this.o.log.warn(`monitor ${typeof s.id === 'number' ? s.id : '(no id)'} left out: ${s.reason}`);
    if (a.skipped.length > 20) this.o.log.warn(`${a.skipped.length - 20} more monitors left out`);
    const skew = a.serverTime === null ? 0 : a.serverTime - this.o.clock.now();
    if (Math.abs(skew) > SKEW_WARN_MS)
      this.o.log.warn(
        `this machine's clock is ${Math.round(skew / 1000)} s off the service's: results' times will be off as much; run NTP (systemd-timesyncd, chrony)`,
      );
    return true;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.once(POLL_WAIT_S);
        this.backoff.succeed();
        if (this.failing !== null) {
          this.o.log.info('the service answers again: monitors are up to date');
          this.o.onReachable?.();
        }
        this.failing = null;
      } catch (err) {
        if (this.stopped) break;
        const wait = Math.max(this.backoff.fail(), retryAfterOf(err));
        const why = err instanceof Error ? err.message : String(err);
        if (why !== this.failing)
          this.o.log.warn(
            `cannot get the monitors: ${why}; ${this.revision === null ? 'none to check yet' : 'the current ones are still checked'}, next try in ${Math.round(wait / 1000)} s`,
          );
        this.failing = why;
        await this.sleep(wait);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.o.timers.set(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        this.o.timers.clear(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
