/** Deleting a monitor takes its whole history with it: check rows, hourly and daily rollups. */
import { CheckWriter } from '../../src/history/writer';
import { TestApp, bearer, createMonitor } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { SwitchServer } from '../support/switch-server';

describe('deleting a monitor', () => {
  let h: EngineHarness;
  let t: TestApp;
  let write: string;
  let target: SwitchServer;

  beforeEach(async () => {
    h = await startEngineHarness();
    ({ t, write, target } = h);
  });
  afterEach(() => h.close());

  const counts = async (id: number) => {
    const [row] = await t.db.query<{ checks: number; hours: number; days: number }[]>(
      `SELECT (SELECT COUNT(*) FROM checks WHERE monitor_id = ?) AS checks,
              (SELECT COUNT(*) FROM rollup_hour WHERE monitor_id = ?) AS hours,
              (SELECT COUNT(*) FROM rollup_day WHERE monitor_id = ?) AS days`,
      [id, id, id],
    );
    return row;
  };

  it('removes its check rows and its hourly and daily rollups, and leaves other monitors alone', async () => {
    const gone = await createMonitor(t, write, httpMonitor({ name: 'gone' }, { url: target.url }));
    const kept = await createMonitor(t, write, httpMonitor({ name: 'kept' }, { url: target.url }));
    for (let i = 0; i < 3; i++) await h.advance(60_000);
    await t.app.get(CheckWriter).flush();
    expect(await counts(gone.id)).toEqual({ checks: 3, hours: 1, days: 1 });
    await t.http.delete(`/api/v1/monitors/${gone.id}`).set(bearer(write)).expect(200);
    expect(await counts(gone.id)).toEqual({ checks: 0, hours: 0, days: 0 });
    expect(await counts(kept.id)).toEqual({ checks: 3, hours: 1, days: 1 });
  });

  it('drops results of the monitor that were still waiting to be written when it was deleted', async () => {
    const m = await createMonitor(t, write, httpMonitor({}, { url: target.url }));
    await h.advance(60_000);
    expect(t.app.get(CheckWriter).pending(m.id)).toHaveLength(1);
    // A flush already queued behind the delete must not bring the rows back.
    const deleting = t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
    const flushing = t.app.get(CheckWriter).flush();
    await Promise.all([deleting, flushing]);
    await t.app.get(CheckWriter).flush();
    expect(await counts(m.id)).toEqual({ checks: 0, hours: 0, days: 0 });
  });
});
