/**
 * The `monitors` table's row: its columns, each with how a MonitorConfig's value is stored in it,
 * and the way back from a row to a StoredMonitor. Secret values in settings are sealed on the way in
 * and opened on the way out by the functions the repository passes (docs/security.md, "Secrets at rest").
 */
import { SEALED_PREFIX } from '../db/secret-box';
import { mapSecrets } from '../common/secrets/secret-fields';
import { KIND_SECRETS } from '../probes/kind-secrets';
import type { KindSettings, MonitorKind } from '../probes/kinds';
import { kindConfig, MonitorConfig } from '../probes/monitor-config';

export type Seal = (value: string) => string;

/**
 * The monitors table's columns that hold a MonitorConfig, in the table's order, each with how its
 * value is stored: the one list the INSERT, the UPDATE, the SELECTs and MonitorRow are built from
 * (rowToStored reads them back).
 */
const CONFIG_COLUMNS = {
  slug: (c: MonitorConfig) => c.slug,
  name: (c: MonitorConfig) => c.name,
  kind: (c: MonitorConfig) => c.kind,
  group_name: (c: MonitorConfig) => c.group,
  tags: (c: MonitorConfig) => JSON.stringify(c.tags),
  description: (c: MonitorConfig) => c.description,
  runbook_url: (c: MonitorConfig) => c.runbook_url,
  interval_s: (c: MonitorConfig) => c.interval_s,
  timeout_ms: (c: MonitorConfig) => c.timeout_ms,
  confirm_after: (c: MonitorConfig) => c.confirm_after,
  retry_interval_s: (c: MonitorConfig) => c.retry_interval_s,
  recover_after: (c: MonitorConfig) => c.recover_after,
  slow_ms: (c: MonitorConfig) => c.slow_ms,
  slow_after: (c: MonitorConfig) => c.slow_after,
  alert_on_slow: (c: MonitorConfig): number => (c.alert_on_slow ? 1 : 0),
  channels: (c: MonitorConfig) => (c.channels === null ? null : JSON.stringify(c.channels)),
  remind_every_min: (c: MonitorConfig) => c.remind_every_min,
  paused: (c: MonitorConfig): number => (c.paused ? 1 : 0),
  muted_until: (c: MonitorConfig) => c.muted_until,
  public: (c: MonitorConfig): number => (c.public ? 1 : 0),
  public_name: (c: MonitorConfig) => c.public_name,
  public_group: (c: MonitorConfig) => c.public_group,
  sort: (c: MonitorConfig) => c.sort,
  settings: (c: MonitorConfig, seal: Seal) => JSON.stringify(withSecrets(c.kind, c.settings, seal)),
  depends_on: (c: MonitorConfig) => JSON.stringify(c.depends_on),
  locations: (c: MonitorConfig) => JSON.stringify(c.locations),
  quorum: (c: MonitorConfig) => c.quorum,
};
/** Config columns a later migration added: ALTER TABLE put them at the table's end, after the times. */
const ADDED_LATER: readonly ConfigColumn[] = ['depends_on', 'locations', 'quorum'];
type ConfigColumn = keyof typeof CONFIG_COLUMNS;
export const CONFIG_COLUMN_NAMES = Object.keys(CONFIG_COLUMNS) as ConfigColumn[];
const CONFIG_WRITERS = Object.values(CONFIG_COLUMNS);

/** A row of the monitors table: the id, the config's columns as stored, the token's hash and the times. */
export type MonitorRow = { id: number } & { [C in ConfigColumn]: ReturnType<(typeof CONFIG_COLUMNS)[C]> } & {
  heartbeat_token_hash: string | null;
  created_at: number;
  updated_at: number;
};

/** Every column of the table, in its order (what `SELECT *` would name). */
export const MONITOR_COLUMNS = [
  'id',
  ...CONFIG_COLUMN_NAMES.filter((c) => !ADDED_LATER.includes(c)),
  'heartbeat_token_hash',
  'created_at',
  'updated_at',
  ...ADDED_LATER,
] as const;
/** What an INSERT names, in the order of its values: configValues(), then the token's hash and the times. */
export const INSERT_COLUMNS = [...CONFIG_COLUMN_NAMES, 'heartbeat_token_hash', 'created_at', 'updated_at'];
export const SELECT_ROW = `SELECT ${MONITOR_COLUMNS.join(', ')} FROM monitors`;

export interface StoredMonitor {
  id: number;
  config: MonitorConfig;
  createdAt: number;
  updatedAt: number;
  hasHeartbeatToken: boolean;
}

/** `open` turns a stored secret value into clear text (SecretBox.open). */
export function rowToStored(r: MonitorRow, open: (value: string) => string): StoredMonitor {
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    hasHeartbeatToken: r.heartbeat_token_hash !== null,
    config: {
      name: r.name,
      slug: r.slug,
      group: r.group_name,
      tags: JSON.parse(r.tags) as string[],
      description: r.description,
      runbook_url: r.runbook_url,
      interval_s: r.interval_s,
      timeout_ms: r.timeout_ms,
      confirm_after: r.confirm_after,
      retry_interval_s: r.retry_interval_s,
      recover_after: r.recover_after,
      slow_ms: r.slow_ms,
      slow_after: r.slow_after,
      alert_on_slow: r.alert_on_slow === 1,
      channels: r.channels === null ? null : (JSON.parse(r.channels) as number[]),
      depends_on: JSON.parse(r.depends_on) as number[],
      locations: JSON.parse(r.locations) as string[],
      quorum: r.quorum,
      remind_every_min: r.remind_every_min,
      paused: r.paused === 1,
      muted_until: r.muted_until,
      public: r.public === 1,
      public_name: r.public_name,
      public_group: r.public_group,
      sort: r.sort,
      ...kindConfig(r.kind, openSettings(r, open)),
    },
  };
}

/**
 * The row's kind settings with `open` applied to each secret value. Only sealed values change when
 * opened (clear text passes through SecretBox.open), so settings whose text holds no sealed value
 * skip the schema walk: most monitors have no secret, and a start with 10,000 of them spent 40 %
 * of its monitor loading there.
 */
function openSettings(r: MonitorRow, open: (value: string) => string): KindSettings[MonitorKind] {
  const settings = JSON.parse(r.settings) as KindSettings[MonitorKind];
  return r.settings.includes(SEALED_PREFIX) ? withSecrets(r.kind, settings, open) : settings;
}

export function withSecrets(
  kind: MonitorKind,
  settings: KindSettings[MonitorKind],
  fn: (value: string) => string,
): KindSettings[MonitorKind] {
  return mapSecrets(settings, KIND_SECRETS[kind], fn);
}

export function configValues(c: MonitorConfig, seal: Seal): unknown[] {
  return CONFIG_WRITERS.map((write) => write(c, seal));
}
