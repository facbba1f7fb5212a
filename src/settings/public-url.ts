/**
 * The public URL saved at first-run setup: a row `public_url` in the settings table (a JSON string),
 * outside the PATCH-able settings (GET /settings shows the effective value, read-only). It is read
 * once at start into the config (config.ts adoptSavedPublicUrl) and adopted there when setup saves
 * it, so every reader keeps taking the address from `config.publicUrl`. FARSIGHT_PUBLIC_URL, when
 * set, wins over it (docs/configuration.md).
 */
import { EntityManager } from 'typeorm';
import { AppConfig, adoptSavedPublicUrl, parseSavedPublicUrl } from '../config/config';
import { Database } from '../db/database';

const KEY = 'public_url';

/** At start (serve and the CLI's link commands): the saved address, if any, becomes the effective one. */
export async function loadSavedPublicUrl(db: Database, config: AppConfig): Promise<void> {
  if (config.publicUrlSource === 'env') return;
  const [row] = await db.query<{ value: string }[]>('SELECT value FROM settings WHERE key = ?', [KEY]);
  if (row) adoptSavedPublicUrl(config, JSON.parse(row.value) as string);
}

/** Saves the address inside the caller's transaction; it becomes the effective one at the commit. */
export async function savePublicUrlIn(m: EntityManager, db: Database, config: AppConfig, url: string): Promise<void> {
  const checked = parseSavedPublicUrl(url);
  await m.query(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    [KEY, JSON.stringify(checked)],
  );
  db.afterCommit(() => adoptSavedPublicUrl(config, checked));
}
