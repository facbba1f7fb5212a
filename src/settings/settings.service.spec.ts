import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { DEFAULT_SETTINGS, StoredSettings } from './settings-defaults';
import { SettingsService } from './settings.service';

/** A database whose settings table is `rows`; counts reads so caching can be seen. */
function fakeDb(rows: Record<string, unknown> = {}) {
  const table = new Map(Object.entries(rows).map(([k, v]) => [k, JSON.stringify(v)]));
  const reads = { count: 0 };
  const db = {
    query: async () => {
      reads.count++;
      return [...table].map(([key, value]) => ({ key, value }));
    },
  } as unknown as Database;
  const manager = {
    query: async (_sql: string, [key, value]: [string, string]) => {
      table.set(key, value);
    },
  } as unknown as EntityManager;
  return { db, manager, reads };
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
    const { db } = fakeDb({ tz_offset_min: 120, retention: { checks_days: 3, hourly_days: 10, events_days: 30 }, unknown_key: 1 });
    const s = await new SettingsService(db).get();
    expect(s).toEqual({ ...DEFAULT_SETTINGS, tz_offset_min: 120, retention: { checks_days: 3, hourly_days: 10, events_days: 30 } });
  });

  it.each(writes)('throws when a caller writes to %s, and a second get() is unaffected', async (_what, write) => {
    const service = new SettingsService(fakeDb({ daily_cap: 50 }).db);
    const first = await service.get();
    const expected = structuredClone(first);
    expect(() => write(first as StoredSettings)).toThrow(TypeError);
    expect(await service.get()).toEqual(expected);
  });

  it('hands every reader the same object from one read of the table', async () => {
    const { db, reads } = fakeDb();
    const service = new SettingsService(db);
    expect(await service.get()).toBe(await service.get());
    expect(reads.count).toBe(1);
  });

  it('reads again after setIn, and the new answer is frozen too', async () => {
    const { db, manager, reads } = fakeDb();
    const service = new SettingsService(db);
    await service.get();
    await service.setIn(manager, { allow_private_targets: false });
    const after = await service.get();
    expect(reads.count).toBe(2);
    expect(after.allow_private_targets).toBe(false);
    expect(() => ((after as StoredSettings).defaults.timeout_ms = 1)).toThrow(TypeError);
  });

  it('saveChangedIn writes only the keys whose value changed, and the next get() sees them', async () => {
    const { db, manager } = fakeDb({ daily_cap: 50 });
    const written: string[] = [];
    const spy = { query: async (sql: string, params: [string, string]) => { written.push(params[0]); return manager.query(sql, params); } } as unknown as EntityManager;
    const service = new SettingsService(db);
    const current = await service.get();
    const next = structuredClone(current) as StoredSettings;
    next.tz_offset_min = 60;
    next.retention.checks_days = 2;
    await service.saveChangedIn(spy, current, next);
    expect(written.sort()).toEqual(['retention', 'tz_offset_min']);
    expect(await service.get()).toEqual(next);
    written.length = 0;
    await service.saveChangedIn(spy, next, next);
    expect(written).toEqual([]);
  });

  it.each(writes)('keeps the built-in defaults frozen against a write to %s', (_what, write) => {
    const before = structuredClone(DEFAULT_SETTINGS);
    expect(() => write(DEFAULT_SETTINGS as StoredSettings)).toThrow(TypeError);
    expect(DEFAULT_SETTINGS).toEqual(before);
  });
});
