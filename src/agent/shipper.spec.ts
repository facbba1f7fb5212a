import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../common/clock';
import type { Timers } from '../engine/scheduling/scheduler';
import { NO_PHASES, type CheckResult, type Outcome } from '../probes/check-result';
import { silentLog } from './agent-log';
import { itemLine, nextBatch, Shipper } from './shipper';
import { Spool, type SpoolEntry } from './spool';

/** Timers driven by a fake clock: advance() fires what falls due, in order. */
class FakeTimers implements Timers {
  private queue: { due: number; fn: () => void; id: number }[] = [];
  private n = 0;
  constructor(private readonly clock: FakeClock) {}
  set(fn: () => void, ms: number): unknown {
    const id = ++this.n;
    this.queue.push({ due: this.clock.now() + ms, fn, id });
    return id;
  }
  clear(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const end = this.clock.now() + ms;
    for (;;) {
      this.queue.sort((a, b) => a.due - b.due);
      const next = this.queue[0];
      if (!next || next.due > end) break;
      this.queue.shift();
      this.clock.set(Math.max(this.clock.now(), next.due));
      next.fn();
      await settle();
    }
    this.clock.set(end);
  }
}

interface Sent {
  at: number;
  blind: boolean;
  seqs: number[];
  monitors: number[];
}

const result = (outcome: Outcome, at: number): CheckResult => ({
  at_ms: at,
  outcome,
  latency_ms: 12,
  phases: NO_PHASES,
  status: null,
  error: outcome === 'down' ? { code: 'refused', message: 'connection refused' } : null,
  cert: null,
  detail: null,
});

describe('Shipper', () => {
  let dir: string;
  let clock: FakeClock;
  let timers: FakeTimers;
  let spool: Spool;
  let sent: Sent[];
  let failWith: string | null;
  let shipper: Shipper;
  /** How often the shipper said the service is reachable again (onReachable). */
  let reachable: number;
  const settle = async () => {
    await shipper.kick();
    await spool.settled();
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipper-'));
    clock = new FakeClock(Date.UTC(2026, 10, 28, 22));
    timers = new FakeTimers(clock);
    spool = Spool.open(dir, { maxResults: 10_000, maxBytes: 10_000_000 }, clock.now());
    sent = [];
    failWith = null;
    reachable = 0;
    shipper = new Shipper({
      onReachable: () => (reachable += 1),
      spool,
      clock,
      timers,
      log: silentLog,
      version: '9.9.9',
      random: () => 0.5,
      poster: {
        post: async (body) => {
          if (failWith) throw new Error(failWith);
          const parsed = JSON.parse(body) as {
            agent: { version: string; blind: boolean };
            results: { seq: number; monitor_id: number; at: string; result: CheckResult }[];
          };
          expect(parsed.agent.version).toBe('9.9.9');
          for (const r of parsed.results) expect(Object.keys(r)).toEqual(['seq', 'monitor_id', 'at', 'result']);
          sent.push({
            at: clock.now(),
            blind: parsed.agent.blind,
            seqs: parsed.results.map((r) => r.seq),
            monitors: parsed.results.map((r) => r.monitor_id),
          });
          return { ackedSeq: parsed.results[parsed.results.length - 1].seq, ignored: [] };
        },
      },
    });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('sends at most one POST a second: results of the next second wait and go together', async () => {
    const t0 = clock.now();
    shipper.add(1, result('up', t0), false);
    await timers.advance(0, settle);
    for (let i = 2; i <= 6; i += 1) {
      await timers.advance(150, settle);
      shipper.add(i, result('up', clock.now()), false);
    }
    await timers.advance(2_000, settle);
    expect(sent.map((s) => [s.at - t0, s.monitors])).toEqual([
      [0, [1]],
      [1_000, [2, 3, 4, 5, 6]],
    ]);
    expect(spool.pending()).toHaveLength(0);
  });

  it('sends at once when a result differs from the last one sent for its monitor', async () => {
    const t0 = clock.now();
    shipper.add(1, result('up', t0), false);
    await timers.advance(0, settle);
    await timers.advance(100, settle);
    shipper.add(2, result('up', clock.now()), false);
    await timers.advance(100, settle);
    shipper.add(1, result('down', clock.now()), false);
    await timers.advance(0, settle);
    expect(sent.map((s) => [s.at - t0, s.monitors])).toEqual([
      [0, [1]],
      [200, [2, 1]],
    ]);
  });

  it('keeps results in the spool while the service fails, then sends them all in seq order', async () => {
    failWith = 'ECONNREFUSED';
    for (let i = 0; i < 20; i += 1) {
      shipper.add(1 + (i % 3), result('up', clock.now()), false);
      await timers.advance(500, settle);
    }
    expect(sent).toEqual([]);
    // Every result reached the disk within a second of its check, whatever the backoff.
    expect(spool.pending().length).toBeGreaterThanOrEqual(19);
    failWith = null;
    await timers.advance(65_000, settle);
    const seqs = sent.flatMap((s) => s.seqs);
    expect(seqs).toHaveLength(20);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(20);
    expect(spool.pending()).toHaveLength(0);
  });

  it('sends at once when told the service is reachable again, instead of waiting out its backoff; says so once it is', async () => {
    failWith = 'ECONNRESET';
    for (let i = 0; i < 12; i += 1) {
      shipper.add(1, result('up', clock.now()), false);
      await timers.advance(1_000, settle);
    }
    expect(sent).toEqual([]);
    failWith = null;
    // Backing off by now (several failures): without a word, nothing goes for a while.
    await timers.advance(500, settle);
    expect(sent).toEqual([]);
    const at = clock.now();
    shipper.retryNow();
    await timers.advance(0, settle);
    expect(sent.map((s) => s.at)).toEqual([at]);
    expect(spool.pending()).toHaveLength(0);
    expect(reachable).toBe(1);
    // Not failing: a word changes nothing.
    shipper.retryNow();
    await timers.advance(0, settle);
    expect(sent).toHaveLength(1);
  });

  it('never mixes blind and counted results in one POST', async () => {
    shipper.add(1, result('down', clock.now()), true);
    shipper.add(2, result('down', clock.now()), true);
    shipper.add(3, result('up', clock.now()), false);
    await timers.advance(0, settle);
    await timers.advance(3_000, settle);
    expect(sent.map((s) => [s.blind, s.monitors])).toEqual([
      [true, [1, 2]],
      [false, [3]],
    ]);
  });

  it('on stop, spools what is in memory and sends it while the service answers', async () => {
    shipper.add(1, result('up', clock.now()), false);
    await timers.advance(0, settle);
    shipper.add(2, result('up', clock.now()), false);
    shipper.add(3, result('up', clock.now()), false);
    await shipper.stop(5_000);
    expect(sent.flatMap((s) => s.monitors)).toEqual([1, 2, 3]);
    shipper.add(4, result('up', clock.now()), false);
    expect(shipper.backlog).toBe(0);
  });

  it('on stop while the service is down, leaves the results in the spool for the next start', async () => {
    failWith = 'ECONNREFUSED';
    shipper.add(1, result('up', clock.now()), false);
    await timers.advance(0, settle);
    shipper.add(2, result('up', clock.now()), false);
    await shipper.stop(5_000);
    expect(Spool.open(dir, { maxResults: 10_000, maxBytes: 10_000_000 }, clock.now()).pending()).toHaveLength(2);
  });
});

describe('nextBatch', () => {
  const entry = (seq: number, blind = false, pad = 0): SpoolEntry => {
    const line = itemLine(seq, 1, result('up', 0), blind) + ' '.repeat(pad);
    return { seq, monitorId: 1, line, bytes: Buffer.byteLength(line) + 1 };
  };

  it.each([
    ['at most 500 results', Array.from({ length: 600 }, (_, i) => entry(i + 1)), 500],
    ['at most 1 MB', Array.from({ length: 300 }, (_, i) => entry(i + 1, false, 10_000)), 97],
    ['one blindness, that of the oldest', [entry(1, true), entry(2, true), entry(3), entry(4, true)], 2],
    ['nothing from nothing', [], 0],
  ])('takes %s', (_what, pending, count) => {
    const batch = nextBatch(pending, 60);
    expect(batch).toHaveLength(count);
    expect(batch.map((e) => e.seq)).toEqual(pending.slice(0, count).map((e) => e.seq));
  });
});
