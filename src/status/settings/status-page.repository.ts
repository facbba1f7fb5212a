/**
 * The status page's rows: its settings and its logo and icon. Both are read on every page build
 * and change rarely, so they are kept in memory and dropped on every write (the writes all go
 * through here).
 */
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { deepFreeze } from '../../common/freeze';
import { Database } from '../../db/database';
import { ReadCache } from '../../db/read-cache';
import { fromStored, PageSettings } from './look';

export type AssetKind = 'logo' | 'icon';

export interface StoredAsset {
  kind: AssetKind;
  type: string;
  data: Buffer;
  v: string;
  width: number | null;
  height: number | null;
  /** The icon: the logo version it was drawn from. */
  logo_v: string | null;
  created_at: number;
}

/** A short content hash: the version in `?v=` URLs. */
export function versionOf(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 12);
}

@Injectable()
export class StatusPageRepository {
  private readonly settings = new ReadCache<PageSettings>();
  private readonly assets = new ReadCache<Map<AssetKind, StoredAsset>>();

  constructor(private readonly db: Database) {}

  /** The saved settings, shared by every reader and so handed out frozen (a change is a new object). */
  getSettings(): Promise<PageSettings> {
    return this.settings.get(async () => {
      const rows = await this.db.read<{ settings: string }[]>('SELECT settings FROM status_page WHERE id = 1');
      return deepFreeze(fromStored(rows[0]?.settings ?? null)) as PageSettings;
    });
  }

  /** The saved settings as last read, without waiting: null while a write has dropped them and nobody has read them since. */
  peekSettings(): PageSettings | null {
    return this.settings.peek();
  }

  async saveSettingsIn(m: EntityManager, s: PageSettings, now: number): Promise<void> {
    await m.query(
      'INSERT INTO status_page (id, settings, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at',
      [JSON.stringify(s), now],
    );
    this.settings.drop();
  }

  async asset(kind: AssetKind): Promise<StoredAsset | null> {
    const assets = await this.assets.get(async () => {
      const rows = await this.db.read<StoredAsset[]>(
        'SELECT kind, type, data, v, width, height, logo_v, created_at FROM status_assets',
      );
      return new Map(rows.map((r) => [r.kind, r]));
    });
    return assets.get(kind) ?? null;
  }

  async putAssetIn(m: EntityManager, a: StoredAsset): Promise<void> {
    await m.query(
      'INSERT OR REPLACE INTO status_assets (kind, type, data, v, width, height, logo_v, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [a.kind, a.type, a.data, a.v, a.width, a.height, a.logo_v, a.created_at],
    );
    this.assets.drop();
  }

  async deleteAssetIn(m: EntityManager, kind: AssetKind): Promise<void> {
    await m.query('DELETE FROM status_assets WHERE kind = ?', [kind]);
    this.assets.drop();
  }

  /** Drops what is kept in memory (a transaction that wrote here was rolled back). */
  forget(): void {
    this.settings.drop();
    this.assets.drop();
  }
}
