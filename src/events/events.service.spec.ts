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

  const rows = () =>
    db.read<Record<string, unknown>[]>(
      'SELECT at, kind, monitor_id, incident_id, actor, text, data FROM events ORDER BY id',
    );

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
    if (n > 0)
      expect(together[0]).toMatchObject({
        at: clock.now(),
        kind: 'up',
        monitor_id: null,
        incident_id: 0,
        actor: null,
        data: null,
      });
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

  describe("an incident's lines", () => {
    const run = { monitorId: 7, since: 1000, until: 3000, kinds: ['failing', 'path'] };
    beforeEach(async () => {
      await db.tx((m) =>
        events.recordAllIn(m, [
          { kind: 'failing', text: 'run starts', monitorId: 7, at: 1000 },
          { kind: 'path', text: 'path changed', monitorId: 7, at: 2000 },
          { kind: 'monitor_updated', text: 'renamed (not a run kind)', monitorId: 7, at: 2500 },
          { kind: 'failing', text: 'another monitor', monitorId: 8, at: 2000 },
          { kind: 'failing', text: 'after Down', monitorId: 7, at: 3500 },
          { kind: 'down', text: 'down', monitorId: 7, incidentId: 5, at: 3000 },
        ]),
      );
    });
    const texts = async (r: typeof run | null) => (await events.incidentLines(5, r)).map((l) => l.text);

    it.each<[string, typeof run | null, string[]]>([
      ['with its id only, once written', null, ['down']],
      ['with its failure run, before it is written', run, ['run starts', 'path changed', 'down']],
    ])('reads them %s', async (_name, r, expected) => {
      expect(await texts(r)).toEqual(expected);
    });

    it('ties the failure run to the incident when it is written', async () => {
      await db.tx((m) => events.attachRunIn(m, 5, run));
      expect(await texts(null)).toEqual(['run starts', 'path changed', 'down']);
    });
  });

  it.each<[string, EventInput[], string | null]>([
    ['none of the kind', [{ kind: 'up', text: 'up', data: { a: 1 } }], null],
    [
      'the newest one',
      [
        { kind: 'restored', text: 'one', data: { n: 1 } },
        { kind: 'restored', text: 'two', data: { n: 2 } },
      ],
      '{"n":2}',
    ],
    [
      'the newest one, without data',
      [
        { kind: 'restored', text: 'one', data: { n: 1 } },
        { kind: 'restored', text: 'two' },
      ],
      null,
    ],
  ])('gives the data of the newest line of a kind: %s', async (_name, input, expected) => {
    await db.tx((m) => events.recordAllIn(m, input));
    expect(await events.latestData('restored')).toBe(expected);
  });
});
