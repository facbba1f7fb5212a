import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import type { IncidentRow } from './incident';
import {
  endOpenIncidentsIn,
  incidentById,
  INCIDENT_COLUMNS,
  IncidentListQuery,
  lastIncidentId,
  listIncidents,
  openIncidentReminders,
  openIncidentRows,
  setAcknowledgementIn,
  setRemindedIn,
  writeEngineIncidentIn,
  incidentSpansSince,
  incidentSpansStarted,
  firstIncidentStart,
  publicIncidentSpansSince,
} from './incidents.table';

const T0 = Date.UTC(2026, 0, 1);

const incident = (id: number, over: Partial<IncidentRow> = {}): IncidentRow => ({
  id,
  monitor_id: 7,
  monitor_name: 'api',
  started_at: T0,
  down_at: T0 + 1000,
  ended_at: null,
  end_reason: null,
  cause_code: 'timeout',
  cause_message: 'no answer in 5 s',
  last_error_code: 'timeout',
  last_error_message: 'no answer in 5 s',
  fails: 3,
  acknowledged_at: null,
  note: null,
  ...over,
});

describe('incidents table', () => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-incidents-'));
    db = new Database(await openDatabase(dir));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (row: IncidentRow, onlyIfMonitorExists = false) =>
    db.tx((m) => writeEngineIncidentIn(m, row, onlyIfMonitorExists));

  it("names every column of the migrated table but the reminder loop's own", async () => {
    const columns = (
      await db.read<{ name: string }[]>("SELECT name FROM pragma_table_info('incidents') ORDER BY cid")
    ).map((c) => c.name);
    expect([...INCIDENT_COLUMNS, 'reminded_at'].sort()).toEqual(columns.sort());
  });

  it.each<[string, IncidentRow[], Partial<IncidentRow> | undefined]>([
    ['writes a new incident', [incident(1)], { fails: 3 }],
    ['updates an open one', [incident(1), incident(1, { fails: 5 })], { fails: 5 }],
    [
      'ends an open one',
      [incident(1), incident(1, { ended_at: T0 + 9000, end_reason: 'recovered' })],
      { ended_at: T0 + 9000, end_reason: 'recovered' },
    ],
    [
      'never changes an ended one',
      [incident(1, { ended_at: T0 + 9000, end_reason: 'recovered' }), incident(1, { fails: 9 })],
      { fails: 3, ended_at: T0 + 9000 },
    ],
  ])('%s', async (_name, writes, expected) => {
    for (const row of writes) await write(row);
    expect(await incidentById(db, 1)).toMatchObject(expected ?? {});
  });

  it('writes nothing for a monitor already deleted when asked to check', async () => {
    await write(incident(1), true);
    expect(await incidentById(db, 1)).toBeUndefined();
    expect(await lastIncidentId(db)).toBe(0);
  });

  it('leaves the acknowledgement and note to PATCH: an engine write keeps them', async () => {
    await write(incident(1));
    await db.tx((m) => setAcknowledgementIn(m, 1, T0 + 5000, 'on it'));
    await write(incident(1, { fails: 4 }));
    expect(await incidentById(db, 1)).toMatchObject({ fails: 4, acknowledged_at: T0 + 5000, note: 'on it' });
  });

  it('ends the open incidents of a monitor, never before they started, except the one named', async () => {
    await write(incident(1, { started_at: T0 + 20_000 }));
    await write(incident(2));
    await write(incident(3, { monitor_id: 8 }));
    await db.tx((m) => endOpenIncidentsIn(m, 7, T0 + 10_000, 'paused', 2));
    expect(await incidentById(db, 1)).toMatchObject({ ended_at: T0 + 20_000, end_reason: 'paused' });
    expect((await openIncidentRows(db)).map((r) => r.id)).toEqual([2, 3]);
  });

  it("answers the status page's spans: open since, started between (newest first), the first start", async () => {
    await write(incident(1, { started_at: T0, ended_at: T0 + 5_000, end_reason: 'recovered' }));
    await write(incident(2, { started_at: T0 + 10_000 }));
    await write(
      incident(3, { monitor_id: 8, started_at: T0 + 20_000, ended_at: T0 + 30_000, end_reason: 'recovered' }),
    );
    await write(incident(4, { monitor_id: 9, started_at: T0 - 50_000 }));
    expect(await incidentSpansSince(db, [7, 8], T0 + 6_000)).toEqual([
      { key: 7, started_at: T0 + 10_000, ended_at: null },
      { key: 8, started_at: T0 + 20_000, ended_at: T0 + 30_000 },
    ]);
    const many = Array.from({ length: 1200 }, (_, i) => i + 10).concat([8]);
    expect(await incidentSpansSince(db, many, T0)).toHaveLength(1);
    expect((await incidentSpansStarted(db, [7, 8], T0, T0 + 20_000)).map((r) => r.started_at)).toEqual([
      T0 + 10_000,
      T0,
    ]);
    expect(await firstIncidentStart(db, [7, 8])).toBe(T0);
    expect(await firstIncidentStart(db, [42])).toBeNull();
  });

  it("answers the public monitors' spans open since a moment, without a list of them", async () => {
    for (const [id, isPublic] of [
      [7, 1],
      [8, 0],
      [9, 1],
    ])
      await db.query(
        `INSERT INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
           slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
         VALUES (?, ?, ?, 'tcp', '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, ?, 0, '{}', 0, 0)`,
        [id, `m${id}`, `m${id}`, isPublic],
      );
    await write(incident(1, { started_at: T0, ended_at: T0 + 5_000, end_reason: 'recovered' }));
    await write(incident(2, { started_at: T0 + 10_000 }));
    await write(incident(3, { monitor_id: 8, started_at: T0 + 20_000 }));
    await write(incident(4, { monitor_id: 9, started_at: T0 - 50_000, ended_at: T0 + 7_000, end_reason: 'recovered' }));
    const spans = await publicIncidentSpansSince(db, T0 + 6_000);
    expect(spans.sort((a, b) => a.started_at - b.started_at)).toEqual([
      { key: 9, started_at: T0 - 50_000, ended_at: T0 + 7_000 },
      { key: 7, started_at: T0 + 10_000, ended_at: null },
    ]);
    // The same rows as the spans of the list of public monitors.
    expect(spans).toEqual(expect.arrayContaining(await incidentSpansSince(db, [7, 9], T0 + 6_000)));
    expect(await incidentSpansSince(db, [7, 9], T0 + 6_000)).toHaveLength(spans.length);
  });

  it('keeps the time of the last reminder for the reminder loop only', async () => {
    await write(incident(1));
    await db.tx((m) => setRemindedIn(m, 1, T0 + 60_000));
    expect(await openIncidentReminders(db)).toEqual([
      {
        id: 1,
        monitor_id: 7,
        down_at: T0 + 1000,
        reminded_at: T0 + 60_000,
        last_error_code: 'timeout',
        last_error_message: 'no answer in 5 s',
      },
    ]);
    expect(Object.keys((await openIncidentRows(db))[0])).toEqual([...INCIDENT_COLUMNS]);
  });

  const query = (over: Partial<IncidentListQuery>): IncidentListQuery => ({
    state: 'all',
    endedUnwritten: [],
    monitorId: null,
    before: null,
    limit: 10,
    ...over,
  });
  it.each<[string, Partial<IncidentListQuery>, number[]]>([
    ['all, newest first', {}, [3, 2, 1]],
    ['open ones', { state: 'open' }, [3, 2]],
    ['open ones, less those the engine ended', { state: 'open', endedUnwritten: [3] }, [2]],
    ['closed ones, with those the engine ended', { state: 'closed', endedUnwritten: [3] }, [3, 1]],
    ["one monitor's", { monitorId: 8 }, [3]],
    ['a page before a cursor', { before: 3, limit: 1 }, [2]],
  ])('lists %s', async (_name, over, ids) => {
    await write(incident(1, { ended_at: T0 + 5000, end_reason: 'recovered' }));
    await write(incident(2));
    await write(incident(3, { monitor_id: 8 }));
    expect((await listIncidents(db, query(over))).map((r) => r.id)).toEqual(ids);
  });
});
