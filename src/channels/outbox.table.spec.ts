import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import {
  addEventIn,
  claimIn,
  dueMessages,
  failQueuedOfIn,
  gatheringMessageIn,
  messageEventsIn,
  newMessageIn,
  nextDueAt,
  pruneMessagesIn,
  retrySendingIn,
  settleIn,
} from './outbox.table';

const T0 = Date.UTC(2026, 0, 1);

describe('outbox table', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-outbox-'));
    db = new Database(await openDatabase(dir));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const message = (channelId: number, dueAt = T0) => db.tx((m) => newMessageIn(m, channelId, T0, dueAt));
  const states = async () =>
    (await db.read<{ id: number; state: string }[]>('SELECT id, state FROM outbox ORDER BY id')).map(
      (r) => `${r.id}:${r.state}`,
    );

  it("gathers events into a channel's pending message, in the order they came", async () => {
    const id = await message(3);
    await db.tx(async (m) => {
      expect(await gatheringMessageIn(m, 3)).toBe(id);
      expect(await gatheringMessageIn(m, 4)).toBeUndefined();
      await addEventIn(m, id, { event: '{"n":1}', monitor_id: 7, incident_id: null });
      await addEventIn(m, id, { event: '{"n":2}', monitor_id: null, incident_id: 9 });
    });
    expect(await db.tx((m) => messageEventsIn(m, id))).toEqual([
      { event: '{"n":1}', monitor_id: 7, incident_id: null },
      { event: '{"n":2}', monitor_id: null, incident_id: 9 },
    ]);
  });

  it("reads every column of the migrated tables but the dispatcher's own times (claimed_at, done_at)", async () => {
    const columns = async (table: string) =>
      (await db.read<{ name: string }[]>('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table])).map(
        (c) => c.name,
      );
    const id = await message(1);
    await db.tx((m) => addEventIn(m, id, { event: '{}', monitor_id: null, incident_id: null }));
    expect([...Object.keys((await dueMessages(db, T0, 1))[0]), 'claimed_at', 'done_at']).toEqual(
      await columns('outbox'),
    );
    expect(['id', 'outbox_id', ...Object.keys((await db.tx((m) => messageEventsIn(m, id)))[0])].sort()).toEqual(
      (await columns('outbox_events')).sort(),
    );
  });

  it('hands out due messages soonest first, and says when the next is due', async () => {
    const late = await message(1, T0 + 5000);
    const soon = await message(2, T0 + 1000);
    expect((await dueMessages(db, T0 + 5000, 10)).map((r) => r.id)).toEqual([soon, late]);
    expect(await dueMessages(db, T0 + 1000, 10)).toEqual([
      { id: soon, channel_id: 2, state: 'pending', created_at: T0, due_at: T0 + 1000, tries: 0 },
    ]);
    expect(await nextDueAt(db)).toBe(T0 + 1000);
  });

  it('lets one claim a due message, once', async () => {
    const id = await message(1);
    expect(await db.tx((m) => claimIn(m, id, T0))).toBe(true);
    expect(await db.tx((m) => claimIn(m, id, T0))).toBe(false);
    expect((await dueMessages(db, T0, 10)).length).toBe(0);
    await db.tx((m) => retrySendingIn(m, T0 + 10_000));
    expect(await dueMessages(db, T0 + 10_000, 10)).toMatchObject([{ id, state: 'retrying', tries: 1 }]);
  });

  it.each<['sent' | 'failed' | 'retrying', number | null]>([
    ['sent', T0 + 50],
    ['failed', T0 + 50],
    ['retrying', null],
  ])('settles a message as %s', async (state, doneAt) => {
    const id = await message(1);
    await db.tx((m) => claimIn(m, id, T0));
    await db.tx((m) => settleIn(m, id, state, T0 + 60_000, T0 + 50));
    expect(await db.read('SELECT state, due_at, done_at FROM outbox')).toEqual([
      { state, due_at: T0 + 60_000, done_at: doneAt },
    ]);
  });

  it('fails the queued messages of one channel and prunes messages done long ago with their events', async () => {
    const a = await message(1);
    const b = await message(2);
    await db.tx((m) => addEventIn(m, a, { event: '{}', monitor_id: null, incident_id: null }));
    await db.tx((m) => failQueuedOfIn(m, 1, T0 + 10));
    expect(await states()).toEqual([`${a}:failed`, `${b}:pending`]);
    await db.tx((m) => pruneMessagesIn(m, T0 + 11));
    expect(await states()).toEqual([`${b}:pending`]);
    expect(await db.read('SELECT * FROM outbox_events')).toEqual([]);
  });
});
