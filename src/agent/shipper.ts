/**
 * From a finished check to the service: results wait in memory at most a second, are appended to
 * the spool (one fsync per batch), and are sent from the spool in seq order, at most one POST a
 * second, sooner when a result's outcome differs from the last one sent for its monitor (a state
 * may change: the service should hear it now). One POST at a time, so the service receives seqs in
 * order; after a failure the next try waits a jittered, capped backoff while results keep going to
 * the spool. A POST holds at most 500 results and 1 MB, and only results of one blindness (the
 * body's `blind` is per POST; a failure seen while the agent was blind must not become a vote when
 * it is sent after the uplink is back).
 */
import type { Clock } from '../common/clock';
import { toIso } from '../common/time';
import type { Timers } from '../engine/scheduling/scheduler';
import type { CheckResult, Outcome } from '../probes/check-result';
import type { AgentLog } from './agent-log';
import { Backoff, retryAfterOf } from './backoff';
import { type Ack, MAX_POST_BYTES, MAX_RESULTS_PER_POST } from './protocol';
import type { Spool, SpoolEntry } from './spool';

export const SEND_GAP_MS = 1_000;

export interface Poster {
  /** Sends a results body; answers the acknowledgement. Throws on any failure. */
  post(body: string): Promise<Ack>;
}

interface Fresh {
  monitorId: number;
  result: CheckResult;
  blind: boolean;
}

/**
 * The entries of the next POST: from the oldest pending, all of its blindness, at most
 * MAX_RESULTS_PER_POST and a body of at most MAX_POST_BYTES (the envelope's bytes counted). Pure.
 */
export function nextBatch(pending: readonly SpoolEntry[], envelopeBytes: number): SpoolEntry[] {
  const out: SpoolEntry[] = [];
  let bytes = envelopeBytes;
  const blind = pending.length > 0 ? isBlindLine(pending[0].line) : false;
  for (const e of pending) {
    if (out.length >= MAX_RESULTS_PER_POST || bytes + e.bytes > MAX_POST_BYTES || isBlindLine(e.line) !== blind) break;
    out.push(e);
    bytes += e.bytes;
  }
  return out;
}

/** Blindness rides in the stored line (so a restart keeps it) and is taken out of the body (the protocol has it per POST). */
const BLIND_MARK = '{"blind":true,';

function isBlindLine(line: string): boolean {
  return line.startsWith(BLIND_MARK);
}

/** The item as the protocol has it: the line without the agent's own blind mark. */
function itemOf(line: string): string {
  return isBlindLine(line) ? `{${line.slice(BLIND_MARK.length)}` : line;
}

export function itemLine(seq: number, monitorId: number, result: CheckResult, blind: boolean): string {
  const item = JSON.stringify({ seq, monitor_id: monitorId, at: toIso(result.at_ms), result });
  return blind ? `${BLIND_MARK}${item.slice(1)}` : item;
}

export interface ShipperOptions {
  spool: Spool;
  poster: Poster;
  clock: Clock;
  timers: Timers;
  log: AgentLog;
  version: string;
  random?: () => number;
  /** Called when a POST succeeds after failing: the service is reachable again (agent.ts wakes the config poll). */
  onReachable?: () => void;
}

export class Shipper {
  private fresh: Fresh[] = [];
  private readonly lastSent = new Map<number, Outcome>();
  private urgent = false;
  private lastPost = -Infinity;
  private retryAt = -Infinity;
  private readonly backoff: Backoff;
  private timer: unknown = null;
  private timerDue = Infinity;
  private cycling: Promise<void> | null = null;
  private stopped = false;
  private failing: string | null = null;
  private readonly ignoredSaid = new Set<string>();
  /** Results the service acknowledged since start. */
  acked = 0;

  constructor(private readonly o: ShipperOptions) {
    this.backoff = new Backoff(o.random);
  }

  /** A finished check: spooled within a second, sent at once when its outcome is news. */
  add(monitorId: number, result: CheckResult, blind: boolean): void {
    if (this.stopped) return;
    this.fresh.push({ monitorId, result, blind });
    const last = this.lastSent.get(monitorId);
    if (last !== undefined && last !== result.outcome) this.urgent = true;
    this.arm();
  }

  /**
   * The service was seen reachable another way (the config poll answered): a POST waiting out its
   * backoff goes now instead of up to a minute later.
   */
  retryNow(): void {
    if (this.failing === null || this.stopped) return;
    this.retryAt = -Infinity;
    this.arm();
  }

  /** Whether results are waiting: in memory or in the spool. */
  get backlog(): number {
    return this.fresh.length + this.o.spool.pending().length;
  }

  /** Runs a cycle now when none runs (also used at start to send what a previous run spooled). */
  kick(): Promise<void> {
    this.cycling ??= this.cycle().finally(() => {
      this.cycling = null;
      this.arm();
    });
    return this.cycling;
  }

  /**
   * Stops: what is in memory goes to the spool, and one last POST of the spool is tried while the
   * service answers, each within `deadlineMs`; what is not acknowledged stays spooled for the next start.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timer = null;
    await this.cycling;
    await this.spoolFresh();
    // While the service is unreachable the spool keeps everything for the next start; while it
    // answers, what is left is sent, as far as the deadline allows (a POST cut short by the exit is
    // sent again at the next start with the same seqs, which the service takes once).
    if (this.failing === null && this.o.spool.pending().length > 0) {
      let timer: unknown = null;
      const deadline = new Promise<void>((resolve) => (timer = this.o.timers.set(resolve, deadlineMs)));
      const drain = async () => {
        while (this.o.spool.pending().length > 0 && this.failing === null) {
          const before = this.o.spool.ackedSeq;
          await this.send();
          if (this.o.spool.ackedSeq === before) break;
        }
      };
      await Promise.race([drain(), deadline]);
      this.o.timers.clear(timer);
    }
    await this.o.spool.settled();
  }

  private arm(): void {
    if (this.stopped || this.cycling) return;
    if (this.fresh.length === 0 && this.o.spool.pending().length === 0) return;
    const now = this.o.clock.now();
    const sendable = this.o.spool.pending().length > 0 || this.fresh.length > 0;
    let due = Math.max(now, this.lastPost + SEND_GAP_MS);
    if (this.urgent && sendable) due = now;
    // Backing off: results still reach the disk every second, the POST waits.
    if (this.retryAt > now) due = Math.min(Math.max(due, now + SEND_GAP_MS), this.retryAt);
    if (this.timer !== null && due >= this.timerDue) return;
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timerDue = due;
    this.timer = this.o.timers.set(
      () => {
        this.timer = null;
        this.timerDue = Infinity;
        void this.kick();
      },
      Math.max(0, due - now),
    );
  }

  private async cycle(): Promise<void> {
    this.urgent = false;
    await this.spoolFresh();
    if (this.o.clock.now() < this.retryAt || this.o.spool.pending().length === 0) return;
    await this.send();
  }

  /** Appends the results waiting in memory to the spool: one write and one fsync. */
  private async spoolFresh(): Promise<void> {
    if (this.fresh.length === 0) return;
    const batch = this.fresh;
    this.fresh = [];
    try {
      const { dropped } = await this.o.spool.append(
        batch.map((f) => ({ monitorId: f.monitorId, body: (seq) => itemLine(seq, f.monitorId, f.result, f.blind) })),
      );
      if (dropped > 0)
        this.o.log.warn(
          `the spool is full: the ${dropped} oldest unsent results were dropped (${this.o.spool.dropped} since start); raise FARSIGHT_AGENT_SPOOL_MAX_RESULTS or _MAX_BYTES to keep more`,
        );
    } catch (err) {
      // Not on disk: kept in memory for the next cycle (a full disk may free up).
      this.fresh = batch.concat(this.fresh);
      this.o.log.error(
        `cannot write the spool in ${this.o.spool.dir}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /**
   * Results the service stored as acknowledged but did not count: said once per monitor and
   * reason, so a monitor taken away from this location while results were on their way does not
   * fill the log.
   */
  private noteIgnored(ignored: readonly { seq: number; reason: string }[], batch: readonly SpoolEntry[]): void {
    for (const i of ignored) {
      const monitorId = batch.find((e) => e.seq === i.seq)?.monitorId;
      const key = `${monitorId ?? '?'} ${i.reason}`;
      if (this.ignoredSaid.has(key)) continue;
      if (this.ignoredSaid.size > 1_000) this.ignoredSaid.clear();
      this.ignoredSaid.add(key);
      this.o.log.warn(`the service did not count a result of monitor ${monitorId ?? '?'}: ${i.reason}`);
    }
  }

  private async send(): Promise<void> {
    const blind = this.o.spool.pending().length > 0 && isBlindLine(this.o.spool.pending()[0].line);
    const head = `{"agent":${JSON.stringify({ version: this.o.version, blind })},"results":[`;
    const batch = nextBatch(this.o.spool.pending(), Buffer.byteLength(head) + 2);
    if (batch.length === 0) return;
    const body = `${head}${batch.map((e) => itemOf(e.line)).join(',')}]}`;
    this.lastPost = this.o.clock.now();
    try {
      const { ackedSeq, ignored } = await this.o.poster.post(body);
      this.noteIgnored(ignored, batch);
      const stored = batch.filter((e) => e.seq <= ackedSeq);
      // Nothing of the batch stored: sending it again at once would only loop.
      if (stored.length === 0) throw new Error(`the service acknowledged none of the batch (acked_seq ${ackedSeq})`);
      await this.o.spool.ack(ackedSeq);
      this.acked += stored.length;
      for (const e of stored) {
        const outcome = outcomeOf(e.line);
        if (outcome) this.lastSent.set(e.monitorId, outcome);
      }
      this.backoff.succeed();
      this.retryAt = -Infinity;
      if (this.failing !== null) {
        this.o.log.info(`results reach the service again (${this.o.spool.pending().length} waiting in the spool)`);
        this.o.onReachable?.();
      }
      this.failing = null;
    } catch (err) {
      const wait = Math.max(this.backoff.fail(), retryAfterOf(err));
      this.retryAt = this.o.clock.now() + wait;
      const why = err instanceof Error ? err.message : String(err);
      if (why !== this.failing)
        this.o.log.warn(`cannot send results: ${why}; kept in the spool, next try in ${Math.round(wait / 1000)} s`);
      this.failing = why;
    }
  }
}

function outcomeOf(line: string): Outcome | null {
  const m = /"outcome":"(up|down|slow|unknown)"/.exec(line);
  return m ? (m[1] as Outcome) : null;
}
