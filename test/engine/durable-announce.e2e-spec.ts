/**
 * Durable, then announced: a transition is heard on the bus only once its state row and timeline
 * line are committed, also when no check result is waiting to be written (pause, config change).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineService } from '../../src/engine/engine.service';
import type { MachineState } from '../../src/engine/state-machine';
import { EventBus } from '../../src/events/event-bus';
import { CheckWriter } from '../../src/history/writer';
import { transitionLine } from '../../src/engine/journal/transition-text';
import type { MonitorState, Transition } from '../../src/probes/status';
import { TestApp, bearer, startApp, createMonitor } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { SwitchServer } from '../support/switch-server';

describe('durable, then announced', () => {
  let h: EngineHarness;
  let t: TestApp;
  let target: SwitchServer;
  let write: string;
  let engine: EngineService;
  let dataDir: string;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-durable-'));
    h = await startEngineHarness({ dataDir });
    ({ t, write, target, engine } = h);
  });
  afterEach(async () => {
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The stored row (with the machine's counters in its `engine` column) against the live machine state. */
  const sameState = (row: MonitorState & { engine: string }, live: MachineState) => {
    const counters = JSON.parse(row.engine) as Partial<MachineState>;
    return (
      row.status === live.status &&
      row.since === live.since &&
      row.failing === live.failing &&
      row.error_code === live.error_code &&
      counters.failingSince === live.failingSince &&
      counters.history === live.history
    );
  };

  const advance = (ms: number) => h.advance(ms);

  /**
   * What listeners see: for each transition, whether the monitor's state row on disk already
   * matched the live state, and whether its timeline line (if it has one) was already stored.
   */
  function watchTransitions(): { kind: string; stored: Promise<boolean> }[] {
    const seen: { kind: string; stored: Promise<boolean> }[] = [];
    t.app.get(EventBus).on('monitor.transition', ({ id, transition }: { id: number; transition: Transition }) => {
      const live = engine.machineStateOf(id)!;
      const kind = transition.kind === 'up' && !transition.recovered ? 'first_up' : transition.kind;
      const hasLine = transitionLine('x', transition) !== null;
      const stored = Promise.all([
        t.db.query<(MonitorState & { engine: string })[]>('SELECT * FROM monitor_state WHERE monitor_id = ?', [id]),
        t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM events WHERE monitor_id = ? AND kind = ? AND at = ?', [
          id,
          kind,
          transition.at,
        ]),
      ]).then(([[row], [lines]]) => sameState(row, live) && lines.n === (hasLine ? 1 : 0));
      seen.push({ kind, stored });
    });
    return seen;
  }

  it('lets listeners hear a Down only after its line is committed', async () => {
    const seen = watchTransitions();
    const m = await createMonitor(t, write, httpMonitor({ confirm_after: 1 }, { url: target.url }));
    target.status = 500;
    await advance(0);
    await t.app.get(CheckWriter).flush();
    expect((await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write))).body.state.status).toBe('down');
    expect(seen.map((s) => s.kind)).toEqual(['failing', 'down']);
    expect(await Promise.all(seen.map((s) => s.stored))).toEqual([true, true]);
  });

  it('commits the state row of a pause without any check result pending, and only then announces its transitions', async () => {
    const m = await createMonitor(t, write, httpMonitor({ confirm_after: 1 }, { url: target.url }));
    target.status = 500;
    await advance(0);
    await t.app.get(CheckWriter).flush();
    const seen = watchTransitions();
    await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(bearer(write)).expect(200);
    expect(t.app.get(CheckWriter).pending()).toHaveLength(0);
    await t.app.get(CheckWriter).flush();
    expect(seen.map((s) => s.kind)).toEqual(['paused', 'closed']);
    expect(await Promise.all(seen.map((s) => s.stored))).toEqual([true, true]);
  });

  it('writes engine-only changes at shutdown: nothing is lost when the service stops right after a pause', async () => {
    const m = await createMonitor(t, write, httpMonitor({ confirm_after: 1 }, { url: target.url }));
    target.status = 500;
    await advance(0);
    await t.app.get(CheckWriter).flush();
    await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(bearer(write)).expect(200);
    const live = engine.machineStateOf(m.id)!;
    expect(live.failingSince).toBeNull();
    await t.close();
    t = h.t = await startApp({}, { dataDir });
    const [row] = await t.db.query<(MonitorState & { engine: string })[]>(
      'SELECT * FROM monitor_state WHERE monitor_id = ?',
      [m.id],
    );
    // The pause ended the failure run; the row must say so even though no check result followed it.
    expect(sameState(row, live)).toBe(true);
  });

  it('announces an incident only once its row says what the announcement says', async () => {
    const heard: Promise<boolean>[] = [];
    t.app.get(EventBus).on('incident', ({ incident }) => {
      heard.push(
        t.db
          .query<{ ended_at: number | null; end_reason: string | null; fails: number }[]>(
            'SELECT ended_at, end_reason, fails FROM incidents WHERE id = ?',
            [incident.id],
          )
          .then(
            ([row]) =>
              row !== undefined &&
              row.ended_at === incident.ended_at &&
              row.end_reason === incident.end_reason &&
              row.fails === incident.fails,
          ),
      );
    });
    const m = await createMonitor(t, write, httpMonitor({ confirm_after: 1, recover_after: 1 }, { url: target.url }));
    target.status = 500;
    await advance(0); // opens
    await t.app.get(CheckWriter).flush();
    target.status = 200;
    await advance(60_000); // recovers
    await t.app.get(CheckWriter).flush();
    target.status = 500;
    await advance(60_000); // opens again
    await t.app.get(CheckWriter).flush();
    await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(bearer(write)).expect(200); // ends in the pause's transaction
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
    expect(heard).toHaveLength(4);
    expect(await Promise.all(heard)).toEqual([true, true, true, true]);
  });
});
