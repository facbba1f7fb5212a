/**
 * What the importer reads out of an Uptime Kuma database or backup, before any mapping: rows as
 * Kuma stores them (the columns of its `monitor`, `notification`, `maintenance`, ... tables,
 * snake_case as in its SQLite schema). Values are untyped on purpose: the file is the user's, maybe
 * damaged or hand-edited, and the mapping (kuma-monitors.ts and beside) checks every value it uses.
 */
export type KumaRow = Record<string, unknown>;

export interface KumaData {
  /** Where it came from: `Uptime Kuma 1.23 database`, `Uptime Kuma 2.x database (migration …)`, `Uptime Kuma 1.23.16 backup`. */
  version: string;
  monitors: KumaRow[];
  /** `notification` rows: id, name, active, is_default, config (JSON text whose `type` names the provider). */
  notifications: KumaRow[];
  monitorNotifications: { monitor_id: number; notification_id: number }[];
  tags: { id: number; name: string }[];
  monitorTags: { monitor_id: number; tag_id: number; value: string | null }[];
  maintenances: KumaRow[];
  monitorMaintenances: { monitor_id: number; maintenance_id: number }[];
  /** The status page with the lowest id (Kuma's first), or null. */
  statusPage: KumaRow | null;
  /** That page's groups (`group` table) and their monitors (`monitor_group`), in Kuma's order. */
  pageGroups: { id: number; name: string; weight: number }[];
  pageMonitors: { group_id: number; monitor_id: number; weight: number }[];
  dockerHosts: { id: number; docker_daemon: string | null; docker_type: string | null }[];
  /** Kuma's `serverTimezone` setting: the zone of maintenance windows set to "same as server". */
  serverTimezone: string | null;
}

export const emptyKumaData = (version: string): KumaData => ({
  version,
  monitors: [],
  notifications: [],
  monitorNotifications: [],
  tags: [],
  monitorTags: [],
  maintenances: [],
  monitorMaintenances: [],
  statusPage: null,
  pageGroups: [],
  pageMonitors: [],
  dockerHosts: [],
  serverTimezone: null,
});
