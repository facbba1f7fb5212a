/**
 * Reads and writes service settings (key/value rows over DEFAULT_SETTINGS), cached in memory.
 * Every reader gets the same cached object, so it is handed out deeply frozen: a reader that
 * changed it would change the settings of everyone else until the next write.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../db/database';
import { ReadCache } from '../db/read-cache';
import { deepFreeze } from '../common/freeze';
import { DEFAULT_SETTINGS, Settings, StoredSettings } from './settings-defaults';

type Key = keyof StoredSettings;

@Injectable()
export class SettingsService {
  private readonly cache = new ReadCache<Settings>();

  constructor(private readonly db: Database) {}

  get(): Promise<Settings> {
    return this.cache.get(async () => {
      const rows = await this.db.read<{ key: string; value: string }[]>('SELECT key, value FROM settings');
      const merged = structuredClone(DEFAULT_SETTINGS) as StoredSettings;
      for (const row of rows) {
        if (row.key in merged) (merged as unknown as Record<string, unknown>)[row.key] = JSON.parse(row.value);
      }
      return deepFreeze(merged);
    });
  }

  /** The settings as last read, without waiting: null while a change has dropped them and nobody has read them since. */
  peek(): Settings | null {
    return this.cache.peek();
  }

  /**
   * Saves some keys inside the caller's transaction; the cache is dropped at the commit (until
   * then get() answers the settings committed before it).
   */
  async setIn<K extends Key>(m: EntityManager, values: Pick<StoredSettings, K>): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      await m.query(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [key, JSON.stringify(value)],
      );
    }
    this.db.afterCommit(() => this.cache.drop());
  }

  /** Saves, inside the caller's transaction, each key whose value in `next` differs from `current`. */
  async saveChangedIn(m: EntityManager, current: Settings, next: StoredSettings): Promise<void> {
    const changed = (Object.keys(next) as Key[]).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
    if (changed.length === 0) return;
    await this.setIn(
      m,
      Object.fromEntries(changed.map((k) => [k, next[k]])) as Partial<StoredSettings> as StoredSettings,
    );
  }
}
