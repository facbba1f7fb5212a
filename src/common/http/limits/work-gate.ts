/**
 * A gate for costly work (password hashing: 32 MiB and ~100 ms of a core each) that anyone may
 * ask for: at most `perKey` pieces run at once for one key (a client address) and `total` in all;
 * beyond that work waits, first come first served, in a queue of at most `queuedPerKey` per key
 * and `queued` in all; beyond that it is refused at once. So a flood from one address waits on
 * itself, a flood from many waits on the total, and the rest of the service keeps its CPU, its
 * memory and the thread pool its database calls run on.
 *
 * The decisions (admit, nextToStart) are pure; WorkGate holds the counts and the waiting work.
 */

export interface GateLimits {
  /** Pieces of work running at once for one key. */
  perKey: number;
  /** Pieces of work running at once in all. */
  total: number;
  /** Pieces waiting for one key. */
  queuedPerKey: number;
  /** Pieces waiting in all. */
  queued: number;
}

export interface GateCounts {
  running: number;
  runningOfKey: number;
  waiting: number;
  waitingOfKey: number;
}

/** `refuse_key`: this key has as much running and waiting as it may; `refuse_total`: the queue is full. */
export type Admission = 'run' | 'wait' | 'refuse_key' | 'refuse_total';

/**
 * What becomes of a new piece of work for a key. It runs when both limits allow: whatever waits is
 * held by a limit (every finish starts what it can, nextToStart), so it overtakes nothing that
 * could run, and a key flooding the queue does not hold up another key's work while the total allows.
 */
export function admit(c: GateCounts, limits: GateLimits): Admission {
  if (c.running < limits.total && c.runningOfKey < limits.perKey) return 'run';
  if (c.waitingOfKey >= limits.queuedPerKey) return 'refuse_key';
  if (c.waiting >= limits.queued) return 'refuse_total';
  return 'wait';
}

/**
 * The index of the waiting piece to start now, or -1: the first in line whose key is below its
 * running limit, while the total is below its own (a key at its limit does not hold up the others).
 */
export function nextToStart(
  waitingKeys: readonly string[],
  runningByKey: ReadonlyMap<string, number>,
  running: number,
  limits: GateLimits,
): number {
  if (running >= limits.total) return -1;
  return waitingKeys.findIndex((k) => (runningByKey.get(k) ?? 0) < limits.perKey);
}

/** Thrown when work is refused: `key` said when the key alone is at its limit. */
export class GateFull extends Error {
  constructor(readonly reason: 'key' | 'total') {
    super(reason === 'key' ? 'too much work waiting for this key' : 'too much work waiting');
  }
}

export class WorkGate {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly waiting: { key: string; start: () => void }[] = [];

  constructor(private readonly limits: GateLimits) {}

  /** Runs `work` when the gate lets it; rejects with GateFull, without running it, when the queue is full. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const admission = admit(this.counts(key), this.limits);
    if (admission === 'refuse_key') return Promise.reject(new GateFull('key'));
    if (admission === 'refuse_total') return Promise.reject(new GateFull('total'));
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
        let done: Promise<T>;
        try {
          done = work();
        } catch (err) {
          done = Promise.reject(err);
        }
        done.then(resolve, reject).finally(() => this.finish(key));
      };
      if (admission === 'run') start();
      else this.waiting.push({ key, start });
    });
  }

  /** Running and waiting work, for diagnostics and tests. */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private counts(key: string): GateCounts {
    return {
      running: this.running,
      runningOfKey: this.runningByKey.get(key) ?? 0,
      waiting: this.waiting.length,
      waitingOfKey: this.waiting.filter((w) => w.key === key).length,
    };
  }

  private finish(key: string): void {
    this.running -= 1;
    const left = (this.runningByKey.get(key) ?? 1) - 1;
    // Keys that went quiet leave nothing behind: the map holds only keys with work running.
    if (left > 0) this.runningByKey.set(key, left);
    else this.runningByKey.delete(key);
    for (;;) {
      const i = nextToStart(
        this.waiting.map((w) => w.key),
        this.runningByKey,
        this.running,
        this.limits,
      );
      if (i === -1) return;
      const [next] = this.waiting.splice(i, 1);
      next.start();
    }
  }
}
