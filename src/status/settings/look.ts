/**
 * The status page's settings: what each key may hold and its default (spec "Status page
 * settings"). Pure; page-settings.ts checks a PUT body against these.
 */
export const LAYOUTS = ['horizon', 'classic', 'ledger'] as const;
export const THEMES = ['auto', 'light', 'dark'] as const;
export const PALETTES = ['standard', 'colorblind'] as const;
export const FONTS = ['geist', 'plex', 'system'] as const;
export const BAR_STYLES = ['worst', 'share'] as const;
export const BAR_SHAPES = ['rounded', 'square', 'slim'] as const;
/** In the order the page shows them, shortest first. */
export const RANGES = ['24h', '7d', '30d', '90d', '12mo'] as const;

export type Layout = (typeof LAYOUTS)[number];
export type Theme = (typeof THEMES)[number];
export type Palette = (typeof PALETTES)[number];
export type Font = (typeof FONTS)[number];
export type BarStyle = (typeof BAR_STYLES)[number];
export type BarShape = (typeof BAR_SHAPES)[number];
export type Range = (typeof RANGES)[number];

export interface PageLink {
  label: string;
  url: string;
}

/** Everything stored in the status_page row (the monitors' public settings live on the monitors). */
export interface PageSettings {
  enabled: boolean;
  title: string;
  app_name: string;
  description: string;
  hosts: string[];
  group_order: string[];
  layout: Layout;
  theme: Theme;
  accent: string;
  palette: Palette;
  font: Font;
  bar_style: BarStyle;
  bar_shape: BarShape;
  ranges: Range[];
  default_range: Range;
  show_response: boolean;
  show_uptime: boolean;
  show_summary: boolean;
  /** Each service's latency from each of its probe locations (docs/agents.md). */
  show_locations: boolean;
  fold_groups: boolean;
  auto_refresh: boolean;
  website: PageLink | null;
  links: PageLink[];
  /** Visitors may subscribe to mail about public incidents and maintenance (docs/subscribers.md). */
  subscribers: boolean;
}

export const DEFAULT_ACCENT = '#564be6';

export function defaultPageSettings(): PageSettings {
  return {
    enabled: true,
    title: 'Status',
    app_name: '',
    description: '',
    hosts: [],
    group_order: [],
    layout: 'horizon',
    theme: 'auto',
    accent: DEFAULT_ACCENT,
    palette: 'standard',
    font: 'geist',
    bar_style: 'worst',
    bar_shape: 'rounded',
    ranges: [...RANGES],
    default_range: '90d',
    show_response: true,
    show_uptime: true,
    show_summary: true,
    show_locations: false,
    fold_groups: true,
    auto_refresh: false,
    website: null,
    links: [],
    subscribers: false,
  };
}

/** The keys of PageSettings, in the order answers list them. */
export const PAGE_KEYS = Object.keys(defaultPageSettings()) as (keyof PageSettings)[];

export const LIMITS = {
  title: 100,
  app_name: 30,
  description: 500,
  hosts: 5,
  group_order: 100,
  group_name: 60,
  links: 3,
  link_label: 40,
  url: 2000,
  monitors: 10_000,
  public_name: 100,
  public_group: 60,
} as const;

/** A stored row read back: unknown keys dropped, missing ones defaulted (a newer version may add keys). */
export function fromStored(json: string | null): PageSettings {
  const out = defaultPageSettings();
  if (!json) return out;
  const stored = JSON.parse(json) as Record<string, unknown>;
  for (const key of PAGE_KEYS) {
    if (stored[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = stored[key];
  }
  return out;
}

/** The range a request asked for, or the page's default when it named none or one not offered (spec). */
export function pickRange(raw: unknown, s: Pick<PageSettings, 'ranges' | 'default_range'>): Range {
  return typeof raw === 'string' && (s.ranges as string[]).includes(raw) ? (raw as Range) : s.default_range;
}
