/**
 * The journal as the writer's hook, on a real SQLite database in a temp dir with the real writer:
 * which state rows a write carries, what is announced after which commit, and what a failed
 * commit keeps.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../common/clock';
import { openDatabase } from '../../db/data-source';
import { Database } from '../../db/database';
import { Announcement, EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import type { IncidentRow } from '../../events/incident';
import { NO_PHASES } from '../../probes/check-result';
import { CheckWriter, FLUSH_EVERY_MS } from '../../history/writer';
import type { AlertCauseRecord } from '../alerts/alert-causes';
import { DirtyWhen, Journal } from './journal';
import type { LiveMonitor } from '../live/live-monitor';
import { initialMachineState } from '../state-machine';

const T0 = Date.UTC(2026, 10, 1);
const MIN = 60_000;

describe('Journal', () => {
  let dir: string;
  let db: Database;
  let bus: EventBus;
  let clock: FakeClock;
  let writer: CheckWriter;
  let journal: Journal;
  let live: Map<number, LiveMonitor>;
  /** What the bus heard, in order: `name:detail`. */
  let heard: string[];
  /** While true, a hook after the journal's makes every transaction fail (a full disk). */
  let failing: boolean;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-journal-'));
    db = new Database(await openDatabase(dir));
    bus = new EventBus();
    clock = new FakeClock(T0);
    writer = new CheckWriter(db, bus, clock);
    writer.foldEveryMs = MIN;
    live = new Map();
    journal = new Journal(writer, new EventsService(db, clock), bus, (id) => live.get(id));
    failing = false;
    writer.addHook({
      onRows: async () => {
        if (failing) throw new Error('database or disk is full');
      },
    });
    heard = [];
    bus.on('monitor.transition', ({ id, transition }) => heard.push(`transition:${id}:${transition.kind}`));
    bus.on('incident', ({ incident }) =>
      heard.push(`incident:${incident.id}:${incident.ended_at === null ? 'open' : 'ended'}`),
    );
    bus.on('path', ({ host }) => heard.push(`path:${host}`));
    for (const id of [1, 2]) await addMonitor(id);
  });
  afterEach(async () => {
    // Also cancels the writer's timer (soon() and added results set one).
    failing = false;
    await writer.flush();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function addMonitor(id: number): Promise<void> {
    await db.query(
      `INSERT INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
         slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
       VALUES (?, ?, ?, 'tcp', '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, 0, 0, '{}', 0, 0)`,
      [id, `m${id}`, `m${id}`],
    );
    await db.query("INSERT INTO monitor_state (monitor_id, status, since) VALUES (?, 'pending', ?)", [id, T0]);
    live.set(id, {
      id,
      config: { name: `m${id}` } as LiveMonitor['config'],
      state: initialMachineState(T0, false),
      incidentId: null,
      certWarned: null,
      downAlerted: null,
    });
  }

  /** A change of the monitor's state in memory, marked dirty as the engine does. */
  function change(id: number, status: 'up' | 'down', when: DirtyWhen): void {
    const m = live.get(id)!;
    m.state = { ...m.state, status, since: clock.now() };
    journal.markDirty(id, when);
  }

  const storedStatus = async (id: number): Promise<string> =>
    (await db.query<{ status: string }[]>('SELECT status FROM monitor_state WHERE monitor_id = ?', [id]))[0].status;
  const lines = async (): Promise<string[]> =>
    (await db.query<{ text: string }[]>('SELECT text FROM events ORDER BY id')).map((r) => r.text);
  const incidents = async (): Promise<string[]> =>
    (await db.query<IncidentRow[]>('SELECT * FROM incidents ORDER BY id')).map(
      (r) => `${r.id}:${r.ended_at === null ? 'open' : r.end_reason}`,
    );
  const result = (id: number) =>
    writer.add({
      monitor_id: id,
      at_ms: clock.now(),
      outcome: 'up',
      latency_ms: 5,
      phases: { ...NO_PHASES },
      status: null,
      error: null,
      cert: null,
      detail: null,
      note: null,
    });

  describe('which state rows a write carries', () => {
    it.each<[DirtyWhen, 'commit' | 'flush', string]>([
      ['soon', 'commit', 'up'],
      ['next-commit', 'commit', 'up'],
      // Only the time of the last check moved: it waits for the monitor's fold (or a flush).
      ['fold', 'commit', 'pending'],
      ['soon', 'flush', 'up'],
      ['next-commit', 'flush', 'up'],
      ['fold', 'flush', 'up'],
    ])('a change marked %s is on disk after a %s: %s', async (when, kind, expected) => {
      change(1, 'up', when);
      await (kind === 'commit' ? writer.commit() : writer.flush());
      expect(await storedStatus(1)).toBe(expected);
      expect(await storedStatus(2)).toBe('pending');
    });

    it('writes a change marked fold with the commit in which its monitor folds', async () => {
      result(1);
      await writer.commit(); // the result is in the log, the monitor not folded yet
      change(1, 'up', 'fold');
      change(2, 'up', 'fold');
      await writer.commit();
      expect([await storedStatus(1), await storedStatus(2)]).toEqual(['pending', 'pending']);
      clock.advance(3 * MIN); // monitor 1 is owed its fold (overdue: twice foldEveryMs)
      await writer.commit();
      expect([await storedStatus(1), await storedStatus(2)]).toEqual(['up', 'pending']);
    });

    it('keeps a change made while a write ran for the next write (the write clears only what it took)', async () => {
      let once = true;
      writer.addHook({
        onRows: async () => {
          // Inside the transaction, after the journal's snapshot: a newer change comes.
          if (once) change(1, 'down', 'fold');
          once = false;
        },
      });
      change(1, 'up', 'soon');
      await writer.commit();
      expect(await storedStatus(1)).toBe('up');
      await writer.flush();
      expect(await storedStatus(1)).toBe('down');
    });

    // The writer's own timer (real time): only a change marked soon asks it for a commit.
    it.each<[DirtyWhen, number]>([
      ['soon', 1],
      ['next-commit', 0],
      ['fold', 0],
    ])('a change marked %s alone makes %s write within a second', async (when, writes) => {
      change(1, 'up', when);
      const until = performance.now() + FLUSH_EVERY_MS + 1000;
      while (writer.stats.flushes < 1 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(writer.stats.flushes).toBe(writes);
    });
  });

  describe('write, then announce', () => {
    it('announces only after the commit that carries the line, the incident and the state', async () => {
      const m = live.get(1)!;
      const incident = journal.incidents.start(1, 'm1', { at: T0, error: null, fails: 1, failingSince: T0 });
      m.incidentId = incident.id;
      change(1, 'down', 'soon');
      journal.line({
        kind: 'down',
        at: T0,
        monitorId: 1,
        incidentId: incident.id,
        actor: 'system',
        text: 'm1 is down',
      });
      const announced: Announcement[] = [
        {
          name: 'monitor.transition',
          payload: { id: 1, transition: { kind: 'down', at: T0, error: null, fails: 1, failingSince: T0 } },
        },
        { name: 'incident', payload: { incident } },
      ];
      for (const a of announced) journal.announceLater(a);
      expect(heard).toEqual([]);
      expect(journal.pendingLines().map((l) => l.text)).toEqual(['m1 is down']);
      await writer.commit();
      expect(heard).toEqual(['transition:1:down', `incident:${incident.id}:open`]);
      expect(await lines()).toEqual(['m1 is down']);
      expect(await incidents()).toEqual([`${incident.id}:open`]);
      expect(await storedStatus(1)).toBe('down');
      expect(journal.pendingLines()).toEqual([]);
      // Nothing is announced twice.
      await writer.flush();
      expect(heard).toHaveLength(2);
    });

    it('keeps everything through a failed commit and writes and announces it once with the next', async () => {
      change(1, 'up', 'soon');
      journal.line({ kind: 'path', at: T0, monitorId: 1, actor: 'system', text: 'm1: a network path problem' });
      journal.announceLater({ name: 'path', payload: { host: 'example.test', at: T0 } });
      const incident = journal.incidents.start(2, 'm2', { at: T0, error: null, fails: 1, failingSince: T0 });
      failing = true;
      await writer.commit();
      expect(writer.stats.failures).toBe(1);
      expect(heard).toEqual([]);
      expect([await lines(), await incidents(), await storedStatus(1)]).toEqual([[], [], 'pending']);
      expect(journal.pendingLines()).toHaveLength(1);
      // More comes while writes fail: it joins what waits, in order.
      journal.line({ kind: 'path', at: T0 + 1, monitorId: 2, actor: 'system', text: 'm2: a network path problem' });
      failing = false;
      await writer.commit();
      expect(heard).toEqual(['path:example.test']);
      expect(await lines()).toEqual(['m1: a network path problem', 'm2: a network path problem']);
      expect(await incidents()).toEqual([`${incident.id}:open`]);
      expect(await storedStatus(1)).toBe('up');
    });

    it('hands alert causes to the sink inside the commit and tells it once the commit is on disk', async () => {
      const calls: string[] = [];
      const cause = (monitorId: number): AlertCauseRecord => ({
        monitorId,
        cause: 'down',
        at: T0,
        incidentId: null,
        config: live.get(monitorId)!.config,
        flapping: false,
      });
      journal.alert(cause(1)); // no sink yet: not even kept
      expect(journal.alerting).toBe(false);
      journal.setAlertSink({
        write: async (_tx, causes) => {
          calls.push(`write:${causes.map((c) => c.monitorId).join(',')}`);
        },
        committed: () => calls.push('committed'),
        acknowledgedIn: async () => undefined,
      });
      journal.alert(cause(2));
      failing = true;
      await writer.commit();
      expect(calls).toEqual(['write:2']);
      failing = false;
      await writer.commit();
      expect(calls).toEqual(['write:2', 'write:2', 'committed']);
    });

    it('forgets a deleted monitor: its dirty state and incident are not written', async () => {
      journal.incidents.start(1, 'm1', { at: T0, error: null, fails: 1, failingSince: T0 });
      change(1, 'down', 'soon');
      journal.forget(1);
      await writer.flush();
      expect([await incidents(), await storedStatus(1)]).toEqual([[], 'pending']);
    });
  });
});
