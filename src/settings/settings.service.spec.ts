import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EntityManager } from 'typeorm';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import { DEFAULT_SETTINGS, StoredSettings } from './settings-defaults';
import { SettingsService } from './settings.service';

let dir: string;
let db: Database;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-settings-'));
  db = new Database(await openDatabase(dir));
});

afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The settings table holds `rows`; counts reads of the database so caching can be seen. */
async function seeded(rows: Record<string, unknown> = {}) {
  for (const [key, value] of Object.entries(rows))
    await db.query('INSERT INTO settings (key, value) VALUES (?, ?)', [key, JSON.stringify(value)]);
  const reads = jest.spyOn(db, 'read');
  return {
    db,
    reads: {
      get count() {
        return reads.mock.calls.length;
      },
    },
  };
}

/** Writes to settings the way a careless caller would, past the readonly type. */
const writes: [string, (s: StoredSettings) => void][] = [
  ['a top-level value', (s) => (s.daily_cap = 1)],
  ['a monitor default', (s) => (s.defaults.interval_s = 5)],
  ['a retention period', (s) => (s.retention.checks_days = 1)],
  ['a whole section', (s) => (s.defaults = { ...s.defaults, confirm_after: 9 })],
  ['a new key', (s) => ((s as unknown as Record<string, unknown>).extra = true)],
];

describe('SettingsService.get', () => {
  it('answers the defaults merged with stored rows, ignoring unknown keys', async () => {
    const { db } = await seeded({
      tz_offset_min: 120,
      retention: { checks_days: 3, hourly_days: 10, events_days: 30 },
      unknown_key: 1,
    });
    const s = await new SettingsService(db).get();
    expect(s).toEqual({
      ...DEFAULT_SETTINGS,
      tz_offset_min: 120,
      retention: { checks_days: 3, hourly_days: 10, events_days: 30 },
    });
  });

  it.each(writes)('throws when a caller writes to %s, and a second get() is unaffected', async (_what, write) => {
    const service = new SettingsService((await seeded({ daily_cap: 50 })).db);
    const first = await service.get();
    const expected = structuredClone(first);
    expect(() => write(first as StoredSettings)).toThrow(TypeError);
    expect(await service.get()).toEqual(expected);
  });

  it('hands every reader the same object from one read of the table', async () => {
    const { db, reads } = await seeded();
    const service = new SettingsService(db);
    expect(await service.get()).toBe(await service.get());
    expect(reads.count).toBe(1);
  });

  it('reads again after setIn, and the new answer is frozen too', async () => {
    const { db, reads } = await seeded();
    const service = new SettingsService(db);
    await service.get();
    await db.tx((m) => service.setIn(m, { allow_private_targets: false }));
    const after = await service.get();
    expect(reads.count).toBe(2);
    expect(after.allow_private_targets).toBe(false);
    expect(() => ((after as StoredSettings).defaults.timeout_ms = 1)).toThrow(TypeError);
  });

  it('saveChangedIn writes only the keys whose value changed, and the next get() sees them', async () => {
    const { db } = await seeded({ daily_cap: 50 });
    const written: string[] = [];
    const recording = (m: EntityManager) =>
      ({
        query: async (sql: string, params: [string, string]) => {
          written.push(params[0]);
          return m.query(sql, params);
        },
      }) as unknown as EntityManager;
    const service = new SettingsService(db);
    const current = await service.get();
    const next = structuredClone(current) as StoredSettings;
    next.tz_offset_min = 60;
    next.retention.checks_days = 2;
    await db.tx((m) => service.saveChangedIn(recording(m), current, next));
    expect(written.sort()).toEqual(['retention', 'tz_offset_min']);
    expect(await service.get()).toEqual(next);
    written.length = 0;
    await db.tx((m) => service.saveChangedIn(recording(m), next, next));
    expect(written).toEqual([]);
  });

  it('answers the committed settings while a save is open, and the new ones once it commits', async () => {
    const { db } = await seeded({ daily_cap: 50 });
    const service = new SettingsService(db);
    let during: number | null = null;
    await db.tx(async (m) => {
      await service.setIn(m, { daily_cap: 7 });
      // Another caller (the dispatcher, a request) reads meanwhile: what is on disk, and caches it.
      during = (await service.get()).daily_cap;
    });
    expect(during).toBe(50);
    expect((await service.get()).daily_cap).toBe(7);
  });

  it('keeps the committed settings after a save that is rolled back', async () => {
    const { db } = await seeded({ daily_cap: 50 });
    const service = new SettingsService(db);
    await db
      .tx(async (m) => {
        await service.setIn(m, { daily_cap: 7 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await service.get()).daily_cap).toBe(50);
  });

  it.each(writes)('keeps the built-in defaults frozen against a write to %s', (_what, write) => {
    const before = structuredClone(DEFAULT_SETTINGS);
    expect(() => write(DEFAULT_SETTINGS as StoredSettings)).toThrow(TypeError);
    expect(DEFAULT_SETTINGS).toEqual(before);
  });
});
