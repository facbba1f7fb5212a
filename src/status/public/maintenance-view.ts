/**
 * The status page's `maintenance` list (JSON and HTML; docs/maintenance.md, "On the status
 * page"): each window announced or active, with the public names of the public services it
 * holds, in page order. A window that holds no public service is not shown (nothing on the page
 * is affected, and its title would tell of private monitors). Pure.
 */
import { toIso } from '../../common/time';
import type { PublicWindow } from '../../maintenance/public-windows';
import { markdownHtml } from './markdown';
import { momentLabel, zoneLabel } from './periods';

export interface PublicMaintenance {
  title: string;
  description: string | null;
  state: 'scheduled' | 'active';
  starts_at: string;
  ends_at: string | null;
  services: string[];
}

/** `services`: the page's public services in page order, each with its monitor id (never shown). */
export function publicMaintenance(
  windows: readonly PublicWindow[],
  services: readonly { key: number; name: string }[],
): PublicMaintenance[] {
  return windows.flatMap((w) => {
    const names = services.filter((s) => w.monitors === null || w.monitors.includes(s.key)).map((s) => s.name);
    if (names.length === 0) return [];
    return [
      {
        title: w.title,
        description: w.description,
        state: w.state,
        starts_at: toIso(w.starts_at),
        ends_at: toIso(w.ends_at),
        services: names,
      },
    ];
  });
}

export interface MaintenanceItemView {
  title: string;
  /** The description's Markdown as HTML of the status page's subset only (markdown.ts): safe to write unescaped. */
  descriptionHtml: string;
  stateText: string;
  when: string;
  services: string;
}

/** The words of the HTML: "In progress" / "Planned", and when, in the page's time zone. */
export function maintenanceViews(list: readonly PublicMaintenance[], tzMin: number): MaintenanceItemView[] {
  return list.map((m) => {
    const at = (iso: string) => `${momentLabel(Date.parse(iso), tzMin)} ${zoneLabel(tzMin)}`;
    const from = at(m.starts_at);
    const until = m.ends_at === null ? 'until further notice' : `until ${at(m.ends_at)}`;
    return {
      title: m.title,
      descriptionHtml: markdownHtml(m.description),
      stateText: m.state === 'active' ? 'In progress' : 'Planned',
      when: m.state === 'active' ? `Since ${from}, ${until}` : `From ${from}, ${until}`,
      services: `Affects ${m.services.join(', ')}`,
    };
  });
}
