/**
 * The export document (spec "Export document"; docs/export-import.md): its shape and key order.
 * Pure. Two exports of the same setup are the same text: every object has a fixed key order
 * (the lists below, then sorted keys below them), monitors come sorted by slug and channels by
 * name, and nothing machine-specific is written (no ids, no times besides `exported_at`):
 * monitors name their channels by name.
 */
import { maskSecrets } from '../common/secrets/secret-fields';
import { toIso } from '../common/time';
import type { Channel } from '../channels/channel-body';
import { senderOf } from '../channels/senders/registry';
import { KIND_DEFAULTS, REQUIRED_KIND_FIELDS } from '../monitors/monitor-defaults';
import { KIND_SECRETS } from '../probes/kind-secrets';
import type { MonitorConfig } from '../probes/monitor-config';
import { COMMON_FIELDS } from '../probes/monitor-config';

/** The format number of `service_export` this service writes and reads. */
export const EXPORT_FORMAT = 1;

/** Only in an export with `?secrets=1`: the SHA-256 of a heartbeat monitor's ping token, so its ping URL keeps working after an import. */
export const TOKEN_FIELD = 'heartbeat_token_sha256';

export interface ExportDocument {
  service_export: typeof EXPORT_FORMAT;
  exported_at: string;
  monitors: Record<string, unknown>[];
  channels: Record<string, unknown>[];
  status_page: Record<string, unknown>;
  /** Maintenance windows, by title (maintenance-section.ts). */
  maintenance: Record<string, unknown>[];
  /** Only with `?secrets=1`: the status page's subscribers (subscribers/subscribers.service.ts). */
  subscribers?: Record<string, unknown>[];
}

export interface ExportedMonitor {
  /** Its id: what the depends_on of others name (the export names them by slug). */
  id?: number;
  config: MonitorConfig;
  /** SHA-256 (hex) of the heartbeat ping token, or null when it has none. */
  tokenHash: string | null;
}

type Plain = Record<string, unknown>;

export function exportDocument(input: {
  exportedAt: number;
  monitors: readonly ExportedMonitor[];
  channels: readonly Channel[];
  statusPage: Plain;
  maintenance: Plain[];
  secrets: boolean;
}): ExportDocument {
  const channels = [...input.channels].sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const slugs = new Map(input.monitors.flatMap((m) => (m.id === undefined ? [] : [[m.id, m.config.slug] as const])));
  return {
    service_export: EXPORT_FORMAT,
    exported_at: toIso(input.exportedAt),
    monitors: [...input.monitors]
      .sort((a, b) => compareText(a.config.slug, b.config.slug))
      .map((m) => monitorForExport(m, names, input.secrets, slugs)),
    channels: channels.map((c) => channelForExport(c, input.secrets)),
    status_page: sortedDeep(input.statusPage) as Plain,
    maintenance: input.maintenance,
  };
}

/** A monitor as its export item: the writable fields in the spec's order, then its kind's settings. */
export function monitorForExport(
  m: ExportedMonitor,
  channelNames: ReadonlyMap<number, string>,
  secrets: boolean,
  monitorSlugs: ReadonlyMap<number, string> = new Map(),
): Plain {
  const c = m.config;
  const out: Plain = {};
  for (const field of COMMON_FIELDS) {
    if (field === 'channels') {
      // A deleted channel's id leaves every monitor with the channel (channels.service), so each id has a name.
      out.channels =
        c.channels === null ? null : c.channels.flatMap((id) => (channelNames.has(id) ? [channelNames.get(id)] : []));
    } else if (field === 'depends_on') {
      // By slug, as an import reads them; a deleted monitor leaves every depends_on (depends-on.service).
      out.depends_on = c.depends_on.flatMap((id) => (monitorSlugs.has(id) ? [monitorSlugs.get(id)] : []));
    } else if (field === 'muted_until') {
      out.muted_until = toIso(c.muted_until);
    } else if (field === 'kind') {
      out.kind = c.kind;
    } else {
      out[field] = structuredClone(c[field]);
    }
  }
  const settings = (secrets ? c.settings : maskSecrets(c.settings, KIND_SECRETS[c.kind])) as unknown as Plain;
  const order = [...REQUIRED_KIND_FIELDS[c.kind], ...Object.keys(KIND_DEFAULTS[c.kind])];
  const known = order.filter((k) => settings[k] !== undefined);
  const rest = Object.keys(settings)
    .filter((k) => !order.includes(k))
    .sort();
  out[c.kind] = Object.fromEntries([...known, ...rest].map((k) => [k, sortedDeep(settings[k])]));
  if (secrets && c.kind === 'heartbeat' && m.tokenHash !== null) out[TOKEN_FIELD] = m.tokenHash;
  return out;
}

/** A channel as its export item: name, kind, enabled, events, config (secrets masked unless asked for). */
export function channelForExport(c: Channel, secrets: boolean): Plain {
  const config = secrets ? c.config : maskSecrets(c.config, senderOf(c.kind).secrets);
  return { name: c.name, kind: c.kind, enabled: c.enabled, events: [...c.events], config: sortedDeep(config) };
}

/** A deep copy whose objects list their keys sorted: the order of nested objects never depends on how they were stored. */
export function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as Plain)
        .sort()
        .filter((k) => (v as Plain)[k] !== undefined)
        .map((k) => [k, sortedDeep((v as Plain)[k])]),
    );
  }
  return v;
}

/** Code-point order, the same on every machine (no locale). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
