import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../common/clock';
import { openDatabase } from '../db/data-source';
import { ENTITIES } from '../entities';
import { Database } from '../db/database';
import { EventInput, EventsService } from './events.service';

describe('EventsService: writing lines', () => {
  let dir: string;
  let db: Database;
  let events: EventsService;
  const clock = new FakeClock(1_700_000_000_000);

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-events-'));
    db = new Database(await openDatabase(dir, ENTITIES));
    events = new EventsService(db, clock);
  });

  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows = () => db.read<Record<string, unknown>[]>('SELECT at, kind, monitor_id, incident_id, actor, text, data FROM events ORDER BY id');

  /** Every optional field set and left out, in turn. */
  const line = (i: number): EventInput => ({
    kind: i % 2 ? 'down' : 'up',
    text: `monitor ${i}: "quoted", 'single', ; -- not SQL`,
    monitorId: i % 3 ? i : null,
    incidentId: i % 4 ? null : i * 10,
    actor: i % 5 ? 'system' : undefined,
    data: i % 2 ? { n: i, nested: { ok: true } } : null,
    at: i % 7 ? 1_600_000_000_000 + i : undefined,
  });

  it.each([0, 1, 99, 100, 101, 250])('writes %i lines in one go as one by one would, in order', async (n) => {
    const input = Array.from({ length: n }, (_, i) => line(i));
    await db.tx(async (m) => {
      for (const e of input) await events.recordIn(m, e);
    });
    const oneByOne = await rows();
    await db.query('DELETE FROM events');
    await db.tx((m) => events.recordAllIn(m, input));
    const together = await rows();
    expect(together).toHaveLength(n);
    expect(together).toEqual(oneByOne);
    if (n > 0) expect(together[0]).toMatchObject({ at: clock.now(), kind: 'up', monitor_id: null, incident_id: 0, actor: null, data: null });
  });

  it('writes nothing when the transaction rolls back', async () => {
    await expect(
      db.tx(async (m) => {
        await events.recordAllIn(m, [line(1), line(2)]);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await rows()).toEqual([]);
  });
});
