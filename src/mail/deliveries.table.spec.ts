import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import {
  DeliveryInput,
  emailsSentSince,
  insertDeliveryIn,
  lastDeliveryOf,
  listDeliveries,
  pruneDeliveriesIn,
} from './deliveries.table';

const T0 = Date.UTC(2026, 0, 1);

const attempt = (over: Partial<DeliveryInput> = {}): DeliveryInput => ({
  at: T0,
  channel_id: 1,
  channel_name: 'ops mail',
  ok: true,
  provider: 'smtp',
  status: 250,
  error: null,
  summary: 'api is down',
  outbox_id: null,
  monitor_ids: '[7]',
  email: true,
  ...over,
});

describe('deliveries table', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-deliveries-'));
    db = new Database(await openDatabase(dir));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const add = (...rows: DeliveryInput[]) =>
    db.tx(async (m) => {
      for (const r of rows) await insertDeliveryIn(m, r);
    });

  it("stores an attempt as the log lists it, with its message's state (null without one)", async () => {
    await add(attempt({ ok: false, error: 'refused', email: false }));
    expect(await listDeliveries(db, { channelId: null, before: null, limit: 10 })).toEqual([
      {
        id: 1,
        at: T0,
        channel_id: 1,
        channel_name: 'ops mail',
        ok: 0,
        provider: 'smtp',
        status: 250,
        error: 'refused',
        summary: 'api is down',
        outbox_id: null,
        monitor_ids: '[7]',
        email: 0,
        state: null,
      },
    ]);
  });

  it('writes and lists every column of the migrated table', async () => {
    await add(attempt());
    const columns = (
      await db.read<{ name: string }[]>("SELECT name FROM pragma_table_info('deliveries') ORDER BY cid")
    ).map((c) => c.name);
    const [row] = await listDeliveries(db, { channelId: null, before: null, limit: 1 });
    expect(Object.keys(row).filter((k) => k !== 'state')).toEqual(columns);
  });

  it.each<[string, { channelId: number | null; before: number | null; limit: number }, number[]]>([
    ['all, newest first', { channelId: null, before: null, limit: 10 }, [3, 2, 1]],
    ["one channel's", { channelId: 2, before: null, limit: 10 }, [2]],
    ['a page before a cursor', { channelId: null, before: 3, limit: 1 }, [2]],
  ])('lists %s', async (_name, q, ids) => {
    await add(attempt(), attempt({ channel_id: 2 }), attempt({ channel_id: null }));
    expect((await listDeliveries(db, q)).map((r) => r.id)).toEqual(ids);
  });

  it("counts the emails sent since a time, gives a channel's newest attempt and prunes old rows", async () => {
    await add(
      attempt({ at: T0 - 1 }),
      attempt(),
      attempt({ ok: false, at: T0 + 1, error: 'timeout' }),
      attempt({ email: false, at: T0 + 2, channel_id: 2 }),
    );
    expect(await emailsSentSince(db, T0)).toBe(1);
    expect(await lastDeliveryOf(db, 1)).toEqual({ at: T0 + 1, ok: 0, error: 'timeout' });
    expect(await lastDeliveryOf(db, 9)).toBeUndefined();
    await db.tx((m) => pruneDeliveriesIn(m, T0));
    expect((await listDeliveries(db, { channelId: null, before: null, limit: 10 })).map((r) => r.at)).toEqual([
      T0 + 2,
      T0 + 1,
      T0,
    ]);
  });
});
