/**
 * A whole Kuma file (KumaData) → an export document for POST /import plus one report entry per
 * Kuma item (docs/import-kuma.md). What this service cannot hold is decided by asking it, not by a
 * list kept here: `can.monitorKinds` / `can.channelKinds` are the service's kind registries
 * (probes/kinds.ts, channels/channel-kind.ts) and `can.sections` the import document's sections,
 * so monitors, channels and maintenance windows of kinds added later import without a change
 * here. Slugs and channel names are made unique in Kuma's id order, so a second import of the
 * same file matches the same items. Pure: hashing and the webhook secret come from the caller.
 */
import { slugify, uniqueSlug } from '../../monitors/slug';
import type { KumaData } from './kuma-data';
import { mapMonitor } from './kuma-monitors';
import { mapNotification } from './kuma-channels';
import { mapMaintenance } from './kuma-maintenance';
import { num, str } from './kuma-values';

export type KumaItemType = 'monitor' | 'channel' | 'maintenance' | 'status_page';
export type KumaOutcome = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface KumaEntry {
  type: KumaItemType;
  /** The Kuma row's id (null for the status page). */
  kuma_id: number | null;
  name: string;
  /** The monitor's slug or the channel's name here; null when skipped before mapping. */
  key: string | null;
  /** `pending` until the import answers. */
  outcome: KumaOutcome | 'pending';
  reason: string | null;
  notes: string[];
}

export interface Capabilities {
  monitorKinds: readonly string[];
  channelKinds: readonly string[];
  sections: readonly string[];
}

export interface PlanTools {
  tokenHash(token: string): string;
  /** The signing secret of an imported webhook channel (Kuma has none): `********` keeps a stored one. */
  webhookSecret(channelName: string, url: string): string;
}

export interface KumaPlan {
  source: string;
  document: Record<string, unknown> & { monitors: Record<string, unknown>[]; channels: Record<string, unknown>[] };
  entries: KumaEntry[];
}

const unsupported = (what: string) => `${what} not supported by this service version`;

export function planKumaImport(data: KumaData, can: Capabilities, tools: PlanTools): KumaPlan {
  const entries: KumaEntry[] = [];
  const entry = (e: Omit<KumaEntry, 'notes' | 'key' | 'reason'> & Partial<KumaEntry>): KumaEntry => {
    const full: KumaEntry = {
      type: e.type,
      kuma_id: e.kuma_id,
      name: e.name,
      key: e.key ?? null,
      outcome: e.outcome,
      reason: e.reason ?? null,
      notes: e.notes ?? [],
    };
    entries.push(full);
    return full;
  };
  const skip = (type: KumaItemType, id: number | null, name: string, reason: string) =>
    entry({ type, kuma_id: id, name, outcome: 'skipped', reason });
  const nameOf = (v: unknown, id: unknown) => str(v) ?? `#${String(id)}`;

  // 1. Channels, so monitors can name them.
  const channels: Record<string, unknown>[] = [];
  const channelName = new Map<number, string>();
  const channelSkip = new Map<number, string>();
  const takenNames = new Set<string>();
  for (const row of data.notifications) {
    const id = num(row.id) ?? -1;
    const name = nameOf(row.name, row.id);
    const m = mapNotification(row);
    let reason = !m.ok ? m.reason : !can.channelKinds.includes(m.kind) ? unsupported(`channel kind ${m.kind}`) : null;
    if (m.ok && reason === null) {
      let unique = m.item.name as string;
      for (let n = 2; takenNames.has(unique); n++) unique = `${(m.item.name as string).slice(0, 94)} (${n})`;
      takenNames.add(unique);
      const item: Record<string, unknown> = { ...m.item, name: unique };
      if (m.kind === 'webhook') {
        const config = item.config as Record<string, unknown>;
        item.config = { ...config, secret: tools.webhookSecret(unique, config.url as string) };
      }
      channels.push(item);
      channelName.set(id, unique);
      const notes = [...m.notes];
      if (m.isDefault)
        notes.push(
          'a default notification in Kuma (added to each new monitor there): monitors keep exactly the notifications Kuma gave them',
        );
      entry({ type: 'channel', kuma_id: id, name, key: unique, outcome: 'pending', notes });
    } else {
      reason ??= 'not mapped';
      channelSkip.set(id, reason);
      skip('channel', id, name, reason);
    }
  }

  // 2. Groups: Kuma's group monitors become the `group` of the monitors under them, nested ones joined with " / ".
  const byId = new Map(data.monitors.map((r) => [num(r.id), r]));
  const groupPath = (parent: unknown): string | null => {
    const parts: string[] = [];
    const seen = new Set<number>();
    for (let p = num(parent); p !== null && !seen.has(p);) {
      seen.add(p);
      const g = byId.get(p);
      if (!g || str(g.type) !== 'group') break;
      parts.unshift(nameOf(g.name, g.id));
      p = num(g.parent);
    }
    return parts.length ? parts.join(' / ') : null;
  };

  // 3. The first status page: its groups and monitors.
  const onPage = new Map<number, { group: string | null; sort: number }>();
  if (data.statusPage) {
    const groups = new Map(data.pageGroups.map((g) => [g.id, g.name]));
    data.pageMonitors.forEach((pm, i) => {
      if (!onPage.has(pm.monitor_id)) onPage.set(pm.monitor_id, { group: groups.get(pm.group_id) ?? null, sort: i });
    });
  }

  // 4. Monitors.
  const monitors: Record<string, unknown>[] = [];
  const slugOf = new Map<number, string>();
  const slugs = new Set<string>();
  const tagName = new Map(data.tags.map((t) => [t.id, t.name]));
  for (const row of data.monitors) {
    const id = num(row.id) ?? -1;
    const name = nameOf(row.name, row.id);
    if (str(row.type) === 'group') {
      skip('monitor', id, name, `a group, not a check: the monitors under it carry the group "${groupPath(id)}"`);
      continue;
    }
    const notes: string[] = [];
    const names: string[] = [];
    for (const mn of data.monitorNotifications.filter((x) => x.monitor_id === id)) {
      const n = channelName.get(mn.notification_id);
      if (n) names.push(n);
      else
        notes.push(
          `notification #${mn.notification_id} is not imported (${channelSkip.get(mn.notification_id) ?? 'not in the file'})`,
        );
    }
    const tags = data.monitorTags
      .filter((t) => t.monitor_id === id && tagName.has(t.tag_id))
      .map((t) => (t.value ? `${tagName.get(t.tag_id)}:${t.value}` : tagName.get(t.tag_id)!));
    const host = data.dockerHosts.find((h) => h.id === num(row.docker_host));
    const m = mapMonitor(
      row,
      {
        group: groupPath(row.parent),
        tags,
        channels: [...new Set(names)],
        dockerEndpoint: dockerEndpoint(host),
        page: onPage.get(id) ?? null,
      },
      tools.tokenHash,
    );
    if (!m.ok) {
      skip('monitor', id, name, m.reason);
      continue;
    }
    if (!can.monitorKinds.includes(m.kind)) {
      skip('monitor', id, name, unsupported(`kind ${m.kind}`));
      continue;
    }
    const slug = uniqueSlug(slugify(m.item.name as string, m.kind), (s) => slugs.has(s));
    slugs.add(slug);
    slugOf.set(id, slug);
    monitors.push({ ...m.item, slug });
    entry({ type: 'monitor', kuma_id: id, name, key: slug, outcome: 'pending', notes: [...m.notes, ...notes] });
  }

  // 5. Maintenance windows.
  const maintenance: Record<string, unknown>[] = [];
  for (const row of data.maintenances) {
    const id = num(row.id) ?? -1;
    const name = nameOf(row.title, row.id);
    const refs = data.monitorMaintenances
      .filter((x) => x.maintenance_id === id && slugOf.has(x.monitor_id))
      .map((x) => slugOf.get(x.monitor_id)!);
    const m = mapMaintenance(row, refs, data.serverTimezone);
    if (!m.ok) skip('maintenance', id, name, m.reason);
    else if (!can.sections.includes('maintenance')) skip('maintenance', id, name, unsupported('maintenance windows'));
    else {
      maintenance.push(...m.windows);
      entry({ type: 'maintenance', kuma_id: id, name, key: name, outcome: 'pending', notes: m.notes });
    }
  }

  // 6. The status page's title and description.
  const status_page: Record<string, unknown> = {};
  if (data.statusPage) {
    const title = str(data.statusPage.title);
    if (title) status_page.title = [...title].slice(0, 100).join('');
    status_page.description = [...(str(data.statusPage.description) ?? '')].slice(0, 500).join('');
    const shown = [...onPage.keys()].filter((mid) => slugOf.has(mid)).length;
    entry({
      type: 'status_page',
      kuma_id: num(data.statusPage.id),
      name: title ?? 'status page',
      outcome: 'pending',
      notes: [`${shown} monitor${shown === 1 ? '' : 's'} shown on it`],
    });
  }

  const document = {
    service_export: 1,
    monitors,
    channels,
    status_page,
    ...(can.sections.includes('maintenance') ? { maintenance } : {}),
  };
  return { source: data.version, document, entries };
}

/** Kuma's docker_host: a socket path or a daemon URL (tcp:// or http(s)://). */
function dockerEndpoint(host: { docker_daemon: string | null; docker_type: string | null } | undefined): string | null {
  const daemon = host?.docker_daemon?.trim();
  if (!daemon) return null;
  if (host?.docker_type === 'socket') return daemon.startsWith('unix://') ? daemon : `unix://${daemon}`;
  return daemon.replace(/^http:\/\//, 'tcp://');
}
