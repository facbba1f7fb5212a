/** The writer as a service: on a real SQLite database in a temp dir, with its hooks. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EntityManager } from 'typeorm';
import { FakeClock } from '../common/clock';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { NO_PHASES } from '../probes/check-result';
import type { StoredCheck } from './check-row';
import { CheckWriter, FLUSH_AT_ROWS, MAX_PENDING_ROWS } from './writer';

const T0 = Date.UTC(2026, 10, 1);
const check = (monitorId: number, at: number): StoredCheck => ({
  monitor_id: monitorId,
  at_ms: at,
  outcome: 'up',
  latency_ms: 12,
  phases: { ...NO_PHASES },
  status: 200,
  error: null,
  cert: null,
  detail: null,
  note: null,
});

describe('CheckWriter', () => {
  let dir: string;
  let db: Database;
  let bus: EventBus;
  let writer: CheckWriter;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-writer-'));
    db = new Database(await openDatabase(dir));
    bus = new EventBus();
    writer = new CheckWriter(db, bus, new FakeClock(T0));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (monitorId: number) =>
    (await db.query<{ at: number }[]>('SELECT at FROM checks WHERE monitor_id = ? ORDER BY at', [monitorId])).map((r) => r.at);

  it('keeps rows pending until they commit, then writes them in one flush', async () => {
    writer.add(check(1, T0));
    writer.add(check(2, T0));
    expect(writer.pending()).toHaveLength(2);
    expect(await stored(1)).toEqual([]);
    await writer.flush();
    expect(writer.pending()).toHaveLength(0);
    expect(await stored(1)).toEqual([T0]);
    expect(writer.stats).toMatchObject({ written: 2, flushes: 1, buffered: 0, lastFlushAt: T0, lastError: null });
  });

  it('moves a second result of a monitor in the same millisecond one millisecond on', async () => {
    expect(writer.add(check(1, T0))).toBe(T0);
    expect(writer.add(check(1, T0))).toBe(T0 + 1);
    expect(writer.add(check(1, T0 - 5))).toBe(T0 + 2);
    await writer.flush();
    expect(await stored(1)).toEqual([T0, T0 + 1, T0 + 2]);
  });

  it('runs a hook that has work even without check rows, and tells it after the commit', async () => {
    const calls: string[] = [];
    let work = true;
    writer.addHook({
      hasWork: () => work,
      onRows: async (m: EntityManager, rows) => {
        calls.push(`rows:${rows.length}`);
        await m.query('SELECT 1');
      },
      afterCommit: () => {
        calls.push('committed');
        work = false;
      },
    });
    await writer.flush();
    expect(calls).toEqual(['rows:0', 'committed']);
    await writer.flush();
    expect(calls).toEqual(['rows:0', 'committed']);
  });

  it('keeps the rows and says nothing to hooks when the transaction fails, and writes them on the next flush', async () => {
    let fail = true;
    const committed: number[] = [];
    writer.addHook({
      onRows: async () => {
        if (fail) throw new Error('disk I/O error');
      },
      afterCommit: () => committed.push(1),
    });
    writer.add(check(1, T0));
    await writer.flush();
    expect(writer.pending()).toHaveLength(1);
    expect(committed).toEqual([]);
    expect(await stored(1)).toEqual([]);
    expect(writer.stats.failures).toBe(1);
    fail = false;
    await writer.flush();
    expect(await stored(1)).toEqual([T0]);
    expect(committed).toEqual([1]);
  });

  it('drops rows of a monitor deleted while a flush that had already taken them waited for its turn', async () => {
    writer.add(check(5, T0));
    writer.add(check(6, T0));
    let release!: () => void;
    let started!: () => void;
    const holding = new Promise<void>((r) => (started = r));
    // Another transaction holds the queue, so the flush below takes its rows and waits behind it.
    const gate = db.tx(() => new Promise<void>((r) => {
      release = r;
      started();
    }));
    await holding;
    const flushing = writer.flush();
    // The deletion commits (elsewhere) and is announced before the queued flush writes.
    bus.emit('monitor.deleted', { id: 5 });
    release();
    await gate;
    await flushing;
    expect(await stored(5)).toEqual([]);
    expect(await stored(6)).toEqual([T0]);
    expect(writer.pending()).toHaveLength(0);
  });

  it('backs off after a failed write: more results do not start a failing transaction each', async () => {
    writer.addHook({
      onRows: async () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      },
    });
    writer.add(check(1, T0));
    await writer.flush();
    expect(writer.stats).toMatchObject({ failures: 1, failingInRow: 1, lastFlushAt: null, lastError: expect.stringContaining('disk is full'), lastErrorAt: T0 });
    for (let i = 1; i <= 2 * FLUSH_AT_ROWS; i++) writer.add(check(1, T0 + i));
    await new Promise((r) => setImmediate(r));
    expect(writer.stats.failures).toBe(1);
    expect(writer.pending()).toHaveLength(2 * FLUSH_AT_ROWS + 1);
  });

  it('keeps at most MAX_PENDING_ROWS results while writes fail, dropping the oldest first', async () => {
    writer.addHook({
      onRows: async () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      },
    });
    writer.add(check(1, T0));
    await writer.flush();
    const total = MAX_PENDING_ROWS + 5_000;
    for (let i = 1; i < total; i++) writer.add(check(1, T0 + i));
    const pending = writer.pending();
    expect(pending.length).toBeLessThanOrEqual(MAX_PENDING_ROWS);
    expect(pending[pending.length - 1].at).toBe(T0 + total - 1);
    expect(writer.stats.dropped).toBe(total - pending.length);
    expect(pending[0].at).toBe(T0 + writer.stats.dropped);
  });
});
