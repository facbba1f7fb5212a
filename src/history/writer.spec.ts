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
import { CHECK_COLUMNS, StoredCheck, toRow } from './check-row';
import { CheckWriter, FLUSH_AT_ROWS, MAX_PENDING_ROWS } from './writer';

const MIN = 60_000;

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
  let clock: FakeClock;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-writer-'));
    db = new Database(await openDatabase(dir));
    bus = new EventBus();
    clock = new FakeClock(T0);
    writer = new CheckWriter(db, bus, clock);
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (monitorId: number) =>
    (await db.query<{ at: number }[]>('SELECT at FROM checks WHERE monitor_id = ? ORDER BY at', [monitorId])).map(
      (r) => r.at,
    );

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
    const gate = db.tx(
      () =>
        new Promise<void>((r) => {
          release = r;
          started();
        }),
    );
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
    expect(writer.stats).toMatchObject({
      failures: 1,
      failingInRow: 1,
      lastFlushAt: null,
      lastError: expect.stringContaining('disk is full'),
      lastErrorAt: T0,
    });
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

  describe('the log and the folds', () => {
    const logged = async () =>
      (
        await db.query<{ bucket: number; monitor_id: number; at: number }[]>(
          'SELECT bucket, monitor_id, at FROM check_log ORDER BY bucket, monitor_id, at',
        )
      ).map((r) => `${r.bucket}:${r.monitor_id}@${r.at - T0}`);
    const marks = async () =>
      (
        await db.query<{ monitor_id: number; bucket: number }[]>(
          'SELECT monitor_id, bucket FROM check_marks ORDER BY monitor_id',
        )
      ).map((r) => [r.monitor_id, r.bucket]);
    const ats = (rows: readonly { at: number }[]) => rows.map((r) => r.at - T0);
    const addMonitors = async (...ids: number[]) => {
      for (const id of ids) {
        await db.query(
          `INSERT INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
             slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
           VALUES (?, ?, ?, 'tcp', '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, 0, 0, '{}', 0, 0)`,
          [id, `m${id}`, `m${id}`],
        );
      }
    };

    it('stores every value as given, through the log and the fold (text with quotes, nulls, big numbers)', async () => {
      await addMonitors(1, 2);
      const odd: StoredCheck[] = [
        {
          ...check(1, T0 + 1),
          outcome: 'down',
          latency_ms: null,
          status: null,
          error: { code: 'status', message: 'HTTP 500 "quoted" \\ back\nnew line ✓ 🚀' },
          detail: '<b>detail</b>',
        },
        {
          ...check(2, T0 + 2),
          outcome: 'slow',
          latency_ms: 2 ** 31 + 0.4,
          phases: { dns_ms: 1.6, connect_ms: 0, tls_ms: null, ttfb_ms: 99999 },
        },
        { ...check(1, T0 + 3), outcome: 'unknown', note: "blind: the service's own network was down" },
      ];
      for (const c of odd) writer.add(c);
      const expected = odd.map(toRow).sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
      const cols = CHECK_COLUMNS.join(', ');
      await writer.commit();
      expect(await db.query(`SELECT ${cols} FROM check_log ORDER BY monitor_id, at`)).toEqual(expected);
      await writer.flush();
      expect(await db.query(`SELECT ${cols} FROM checks ORDER BY monitor_id, at`)).toEqual(expected);
      expect(
        await db.query(
          'SELECT typeof(at) AS a, typeof(latency) AS l, typeof(info) AS i FROM checks WHERE monitor_id = 1 ORDER BY at',
        ),
      ).toEqual([
        { a: 'integer', l: 'null', i: 'text' },
        { a: 'integer', l: 'integer', i: 'text' },
      ]);
    });

    it('commits results to the log, one bucket per commit sorted by monitor, and readers still see them', async () => {
      writer.add(check(2, T0 + 1));
      writer.add(check(1, T0 + 2));
      await writer.commit();
      writer.add(check(1, T0 + 3));
      await writer.commit();
      expect(await logged()).toEqual(['1:1@2', '1:2@1', '2:1@3']);
      expect(await stored(1)).toEqual([]);
      expect(writer.pending()).toEqual([]);
      writer.add(check(1, T0 + 4));
      expect(ats(await writer.unfoldedOf(1))).toEqual([2, 3, 4]);
      expect(ats(await writer.newestUnfolded(3, null))).toEqual([4, 3, 2]);
      expect(ats(await writer.newestUnfolded(10, { at: T0 + 3, monitorId: 1 }))).toEqual([2, 1]);
    });

    it('folds the monitors in turn, about once every foldEveryMs each, and drops buckets once all their rows moved', async () => {
      writer.foldEveryMs = 4 * MIN;
      for (const id of [1, 2, 3, 4]) writer.add(check(id, T0 + id));
      await writer.commit(); // bucket 1: nothing owed yet
      clock.advance(MIN);
      for (const id of [1, 2, 3, 4]) writer.add(check(id, T0 + MIN + id));
      await writer.commit(); // bucket 2: one of four monitors is owed its fold
      expect(await stored(1)).toEqual([T0 + 1, T0 + MIN + 1]);
      expect(await stored(2)).toEqual([]);
      expect(await marks()).toEqual([[1, 2]]);
      expect(ats(await writer.unfoldedOf(1))).toEqual([]);
      expect(ats(await writer.unfoldedOf(2))).toEqual([2, MIN + 2]);
      clock.advance(2 * MIN);
      await writer.commit(); // without any new result: three monitors left, two minutes of four, 1.5 folds owed
      expect(await marks()).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(await stored(3)).toEqual([]);
      clock.advance(MIN);
      await writer.commit(); // 0.5 + 2 × 1/4
      expect(await marks()).toEqual([
        [1, 2],
        [2, 2],
        [3, 2],
      ]);
      expect((await logged()).filter((k) => k.includes(':4@'))).toEqual(['1:4@4', '2:4@60004']);
      // Buckets 1 and 2 still hold monitor 4's rows: nothing is dropped yet.
      expect(await logged()).toHaveLength(8);
      clock.advance(4 * MIN);
      await writer.commit(); // the last one (8 minutes after its first result: overdue anyway): nothing is left in the log
      expect(await stored(4)).toEqual([T0 + 4, T0 + MIN + 4]);
      expect(await logged()).toEqual([]);
      expect(writer.stats.folds).toBe(4);
    });

    it('writes a result that carried a transition into `checks` at once, and the rest at the fold', async () => {
      writer.add(check(1, T0));
      const at = writer.add(check(1, T0 + 1));
      writer.settleNow(1, at);
      await writer.commit();
      expect(await stored(1)).toEqual([T0 + 1]);
      expect(ats(await writer.unfoldedOf(1))).toEqual([0, 1]);
      await writer.flush();
      expect(await stored(1)).toEqual([T0, T0 + 1]);
      expect(await logged()).toEqual([]);
    });

    it('reads back after a crash exactly the results its monitors had not folded', async () => {
      await addMonitors(1, 2);
      writer.foldEveryMs = 2 * MIN;
      writer.add(check(1, T0));
      writer.add(check(2, T0));
      await writer.commit();
      clock.advance(MIN);
      writer.add(check(1, T0 + MIN));
      writer.add(check(2, T0 + MIN));
      await writer.commit(); // monitor 1 folds; 2 does not
      writer.add(check(1, T0 + 2 * MIN));
      await writer.commit();
      writer.add(check(2, T0 + 3 * MIN)); // never committed: lost with the process
      const again = new CheckWriter(db, new EventBus(), clock);
      const back = await again.restore();
      expect(back.map((r) => `${r.monitor_id}@${r.at - T0}`)).toEqual(['1@120000', '2@0', '2@60000']);
      expect(ats(await again.unfoldedOf(1))).toEqual([2 * MIN]);
      expect(again.add(check(2, T0 + MIN))).toBe(T0 + MIN + 1); // clash handling knows the log
      await again.flush();
      expect(await stored(1)).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
      expect(await stored(2)).toEqual([T0, T0 + MIN, T0 + MIN + 1]);
      expect(await logged()).toEqual([]);
    });

    it('answers failed results across monitors, newest first, and deletes one monitor from every bucket', async () => {
      const failed = (monitorId: number, at: number): StoredCheck => ({
        ...check(monitorId, at),
        outcome: 'down',
        error: { code: 'status', message: 'HTTP 500' },
      });
      writer.add(failed(1, T0 + 1));
      writer.add(check(2, T0 + 2));
      await writer.commit();
      writer.add(failed(2, T0 + 3));
      await writer.commit();
      writer.add(failed(1, T0 + 4));
      expect((await writer.unfoldedDown(10, null, 2)).map((r) => `${r.monitor_id}@${r.at - T0}`)).toEqual([
        '1@4',
        '2@3',
        '1@1',
      ]);
      expect(
        (await writer.unfoldedDown(10, { at: T0 + 3, monitorId: 2 }, 2)).map((r) => `${r.monitor_id}@${r.at - T0}`),
      ).toEqual(['1@1']);
      await db.tx((m) => writer.deleteLoggedIn(m, 1));
      expect(await logged()).toEqual(['1:2@2', '2:2@3']);
    });
  });
});
