import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import { SecretBox, SECRET_KEY_BYTES } from '../db/secret-box';
import type { MonitorConfig } from '../probes/monitor-config';
import { initialState, MonitorState } from '../probes/status';
import {
  insertStateIn,
  resetStateIn,
  startReadStoredStates,
  STATE_COLUMNS,
  stateRowOf,
  StoredStateRow,
  writeStatesIn,
} from './monitor-state.table';
import {
  allMonitorRows,
  MONITOR_COLUMNS,
  monitorIds,
  MonitorsRepository,
  publicPlacementRows,
  publicServiceRows,
  publicServiceSql,
  startReadMonitorRows,
} from './monitors.repository';

const T0 = Date.UTC(2026, 0, 1);

const config = (over: Partial<MonitorConfig> = {}): MonitorConfig =>
  ({
    name: 'Shop',
    slug: 'shop',
    group: 'web',
    tags: ['eu', 'prod'],
    description: 'the shop',
    runbook_url: 'https://wiki.example.com/shop',
    interval_s: 60,
    timeout_ms: 5000,
    confirm_after: 2,
    retry_interval_s: 20,
    recover_after: 1,
    slow_ms: 800,
    slow_after: 3,
    alert_on_slow: true,
    channels: [4, 5],
    depends_on: [7, 8],
    locations: ['local'],
    quorum: null,
    remind_every_min: 30,
    paused: false,
    muted_until: T0 + 60_000,
    public: true,
    public_name: 'Shop front',
    public_group: 'Public',
    sort: 3,
    kind: 'tcp',
    settings: { host: 'shop.example.com', port: 443, send: null, expect_banner: null, ip_version: 'auto' },
    ...over,
  }) as MonitorConfig;

describe('the catalog tables (monitors, monitor_state)', () => {
  let dir: string;
  let db: Database;
  let repo: MonitorsRepository;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-catalog-'));
    db = new Database(await openDatabase(dir));
    repo = new MonitorsRepository(db, new SecretBox(Buffer.alloc(SECRET_KEY_BYTES, 7)));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const columnsOf = async (table: string) =>
    (await db.read<{ name: string }[]>('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table])).map(
      (c) => c.name,
    );

  it.each<[string, readonly string[]]>([
    ['monitors', MONITOR_COLUMNS],
    // The cause columns came later (migration Dependencies): ALTER TABLE put them after the blob.
    [
      'monitor_state',
      [...STATE_COLUMNS.filter((c) => !c.startsWith('cause_')), 'engine', 'cause_monitor_id', 'cause_incident_id'],
    ],
  ])('names every column of the migrated %s table, in its order', async (table, columns) => {
    expect(await columnsOf(table)).toEqual([...columns]);
  });

  const insert = (c: MonitorConfig) =>
    db.tx(async (m) => {
      const id = await repo.insert(m, c, T0, null);
      await insertStateIn(m, initialState(id, c.paused, T0));
      return id;
    });

  it.each<[string, Partial<MonitorConfig>]>([
    ['every field set', {}],
    [
      'every nullable field null',
      {
        group: null,
        description: null,
        runbook_url: null,
        slow_ms: null,
        channels: null,
        muted_until: null,
        public_name: null,
        public_group: null,
      },
    ],
    ['every flag the other way', { alert_on_slow: false, paused: true, public: false }],
  ])('stores a config and reads it back unchanged: %s', async (_name, over) => {
    const c = config(over);
    const id = await insert(c);
    expect((await repo.findById(id))?.config).toEqual(c);
    const [bulk] = await (await startReadMonitorRows(db)).rows;
    expect(repo.toStored(bulk).config).toEqual(c);
  });

  it('reads ids, stored rows, public placements and public services (with a private one asked for)', async () => {
    const a = await insert(config());
    const b = await insert(config({ slug: 'back', public: false, public_name: null, public_group: null, sort: 1 }));
    expect(await monitorIds(db)).toEqual([a, b]);
    expect((await allMonitorRows(db)).map((r) => repo.toStored(r).config.slug)).toEqual(['shop', 'back']);
    expect(await publicPlacementRows(db)).toEqual([
      { id: a, public: 1, public_name: 'Shop front', public_group: 'Public', sort: 3 },
      { id: b, public: 0, public_name: null, public_group: null, sort: 1 },
    ]);
    expect((await publicServiceRows(db, [])).map((r) => r.id)).toEqual([a]);
    const both = await publicServiceRows(db, [b]);
    expect(both.map((r) => [r.id, r.public, r.kind, r.grace_s])).toEqual([
      [a, 1, 'tcp', null],
      [b, 0, 'tcp', null],
    ]);
    expect(Object.keys(both[0])).not.toContain('settings');
  });

  it.each([0, 2])(
    'finds the public monitors through their index, never by reading every monitor (%i extra ids)',
    async (extra) => {
      const plan = await db.read<{ detail: string }[]>(
        `EXPLAIN QUERY PLAN ${publicServiceSql(extra)}`,
        Array.from({ length: extra }, (_, i) => i + 1),
      );
      const details = plan.map((p) => p.detail);
      // A full scan of a table reads "SCAN m" (no index); the partial index may also be read as covering.
      expect({ details, viaIndex: details.some((d) => /USING (COVERING )?INDEX monitors_public/.test(d)) }).toEqual({
        details,
        viaIndex: true,
      });
      expect(details.filter((d) => d.startsWith('SCAN') && !d.includes(' USING '))).toEqual([]);
    },
  );

  it('updates every config column and the update time', async () => {
    const id = await insert(config());
    const changed = config({
      name: 'Shop 2',
      slug: 'shop-2',
      tags: [],
      runbook_url: null,
      depends_on: [],
      locations: ['local'],
      quorum: 1,
      interval_s: 30,
      sort: 9,
      settings: { host: 'b.example.com', port: 80, send: 'x', expect_banner: null, ip_version: 'ipv4' },
    });
    await db.tx((m) => repo.update(m, id, changed, T0 + 1000));
    expect(await repo.findById(id)).toMatchObject({ config: changed, createdAt: T0, updatedAt: T0 + 1000 });
  });

  it("writes the engine's states, blob included, and reads them back as stored", async () => {
    const a = await insert(config());
    const b = await insert(config({ slug: 'other' }));
    const down: StoredStateRow = {
      ...initialState(a, false, T0),
      status: 'down',
      since: T0 + 5,
      failing: 3,
      flapping: 0,
      last_check_at: T0 + 9,
      last_ok_at: T0 + 1,
      latency_ms: 12,
      error_code: 'timeout',
      error_message: 'no answer',
      incident_id: 4,
      cert_expires_at: T0 + 99,
      note: 'checked from one place',
      engine: '{"good":0}',
    };
    await db.tx((m) => writeStatesIn(m, [down]));
    const rows = await (await startReadStoredStates(db)).rows;
    expect(rows).toEqual([down, { ...initialState(b, false, T0), engine: null }]);
    const listed = await repo.list({}, 10, null);
    expect(listed.map((r) => [r.id, r.s_status])).toEqual([
      [b, 'unknown'],
      [a, 'down'],
    ]);
    expect(await stateRowOf(db.manager, a)).toEqual(strip(down));
  });

  it('resets a state on a pause, leaving the times of the checks', async () => {
    const id = await insert(config());
    await db.tx((m) =>
      writeStatesIn(m, [
        {
          ...initialState(id, false, T0),
          status: 'down',
          failing: 2,
          incident_id: 3,
          last_check_at: T0 + 9,
          engine: null,
        },
      ]),
    );
    await db.tx((m) => resetStateIn(m, id, 'paused', T0 + 100));
    expect(await stateRowOf(db.manager, id)).toMatchObject({
      status: 'paused',
      since: T0 + 100,
      failing: 0,
      incident_id: null,
      last_check_at: T0 + 9,
    });
  });
});

function strip(row: StoredStateRow): MonitorState {
  const { engine: _engine, ...state } = row;
  return state;
}
