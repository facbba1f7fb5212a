/**
 * The view models of the public pages, made from the public model (never from rows) and the
 * page's settings: every word, class and link the templates show is decided here, so templates
 * only place them (pages stay dumb: a service builds the view model, the template formats it). Pure.
 */
import { MaintenanceItemView, maintenanceViews } from './maintenance-view';
import { formatDuration } from '../../common/time';
import type { MonitorStatus } from '../../probes/status';
import { BarState, percentText } from './bars';
import { stripHtml } from './fragments';
import type { PageSettings, Range } from '../settings/look';
import { Overall, OVERALL_TEXT } from './overall';
import { clockLabel, dayLabel, localDay, momentLabel, RANGE_WORDS, zoneLabel } from './periods';
import type { PublicBar, PublicGroup, PublicIncident, PublicService, PublicStatus } from './public-model';

/** Where the page's assets are (versioned URLs) and what else the chrome needs. */
export interface PageContext {
  settings: PageSettings;
  assets: { css: string; js: string; theme: string; fonts: string[]; icon: string; appleIcon: string };
  logo: { src: string } | null;
  preview: boolean;
  tzMin: number;
  now: number;
}

export interface TimeView {
  iso: string;
  text: string;
  /** How status.js writes it in the visitor's zone: date and time, or time only. */
  f: 'dt' | 't';
}

export interface LinkView {
  label: string;
  href: string | null;
}

export interface StripView {
  /** Text alternative of the whole strip. */
  label: string;
  /** The first bar's period and the bars' unit, for status.js to name each bar. */
  first: string;
  unit: 'hour' | 'block' | 'day' | 'month';
  /**
   * The bars as markup, made here rather than in the template: a page has up to 9,000 of them and
   * this loop costs a fraction of a template's. Only bars with downtime carry their words
   * (title); status.js names the others from `first` and `unit`.
   */
  html: string;
  from: string;
  /** In the hour ranges, when watching began inside the range: that bar's start, a moment. */
  since: TimeView | null;
  to: string;
  uptime: string | null;
}

export interface StatusView {
  cls: 'ok' | 'warn' | 'bad' | 'off' | 'unk';
  icon: string;
  text: string;
  /** Words beside the chip: "affected by an outage of Router" (docs/dependencies.md). */
  note?: string;
}

const SERVICE_STATUS: Record<MonitorStatus, StatusView> = {
  up: { cls: 'ok', icon: 'i-ok', text: 'Operational' },
  slow: { cls: 'warn', icon: 'i-warn', text: 'Slow' },
  down: { cls: 'bad', icon: 'i-bad', text: 'Outage' },
  paused: { cls: 'off', icon: 'i-off', text: 'Paused' },
  unknown: { cls: 'unk', icon: 'i-unk', text: 'No data yet' },
};

const OVERALL_STATUS: Record<Overall, StatusView> = {
  operational: { cls: 'ok', icon: 'i-ok', text: OVERALL_TEXT.operational },
  degraded: { cls: 'warn', icon: 'i-warn', text: OVERALL_TEXT.degraded },
  partial_outage: { cls: 'bad', icon: 'i-bad', text: OVERALL_TEXT.partial_outage },
  major_outage: { cls: 'bad', icon: 'i-bad', text: OVERALL_TEXT.major_outage },
};

const GROUP_TEXT: Record<Overall, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

const STATE_WORDS: Record<BarState, string> = {
  not_watched: 'not watched yet',
  no_data: 'no data',
  ok: 'no downtime',
  warn: 'some downtime',
  bad: 'major downtime',
  maintenance: 'mostly maintenance',
};

export function serviceStatus(s: MonitorStatus, affectedBy: string | null = null): StatusView {
  return affectedBy === null
    ? SERVICE_STATUS[s]
    : { ...SERVICE_STATUS[s], note: `affected by an outage of ${affectedBy}` };
}

export function moment(iso: string, tzMin: number): TimeView {
  return { iso, text: momentLabel(Date.parse(iso), tzMin), f: 'dt' };
}

/**
 * The share of a bar that was down, in eight steps for the `share` style: any downtime at all
 * shows (step 1), and a bar that was all down fills (step 8).
 */
export function shareStep(b: Pick<PublicBar, 'uptime' | 'down_ms'>): number {
  if (b.uptime === null || b.down_ms === 0) return 0;
  const down = 100 - b.uptime;
  const edges = [1, 5, 10, 25, 50, 75, 100];
  const i = edges.findIndex((e) => down < e);
  return i === -1 ? 8 : i + 1;
}

/**
 * The words of a bar with downtime or maintenance (its text alternative, as title); a bar mostly
 * in maintenance says so first, and its uptime is that of the time outside the window.
 */
function barTip(b: PublicBar, showUptime: boolean): string | null {
  if (b.down_ms === 0 && b.maintenance_ms === 0) return null;
  const parts: string[] = [];
  if (b.state === 'maintenance') {
    parts.push(`maintenance ${formatDuration(b.maintenance_ms)}`);
    if (showUptime && b.uptime !== null) parts.push(`uptime outside it ${percentText(b.uptime, b.down_ms)}`);
  } else {
    parts.push(showUptime ? percentText(b.uptime, b.down_ms) : STATE_WORDS[b.state]);
    if (b.maintenance_ms > 0) parts.push(`maintenance ${formatDuration(b.maintenance_ms)}`);
  }
  if (b.down_ms > 0) parts.push(`down ${formatDuration(b.down_ms)}`);
  return `${b.label}: ${parts.join(', ')}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export function barsHtml(bars: PublicBar[], s: Pick<PageSettings, 'bar_style' | 'show_uptime'>): string {
  // Kept per bar and per strip for each style (fragments.ts): a bar's markup depends on it and these two only.
  return stripHtml(bars, `${s.bar_style}|${s.show_uptime}`, (b) => {
    const cls = s.bar_style === 'share' ? `b ${b.state} d${shareStep(b)}` : `b ${b.state}`;
    const tip = barTip(b, s.show_uptime);
    return tip === null ? `<i class="${cls}"></i>` : `<i class="${cls}" title="${escapeHtml(tip)}"></i>`;
  });
}

/** The start of the first watched bar of an hour range that began being watched inside it. */
function sinceOf(bars: PublicBar[], range: Range, tzMin: number): TimeView | null {
  if ((range !== '24h' && range !== '7d') || bars[0]?.state !== 'not_watched') return null;
  const first = bars.find((b) => b.state !== 'not_watched');
  return first ? { iso: first.period, text: momentLabel(Date.parse(first.period), tzMin), f: 'dt' } : null;
}

export function strip(
  bars: PublicBar[],
  range: Range,
  from: string,
  uptime: number | null,
  downMs: number,
  s: PageSettings,
  what: string,
  tzMin: number,
): StripView {
  const counts: Record<BarState, number> = { not_watched: 0, no_data: 0, ok: 0, maintenance: 0, warn: 0, bad: 0 };
  for (const b of bars) counts[b.state] += 1;
  const unit = range === '24h' ? 'hours' : range === '7d' ? 'six-hour blocks' : range === '12mo' ? 'months' : 'days';
  const said = (['ok', 'warn', 'bad', 'maintenance', 'no_data', 'not_watched'] as const)
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${STATE_WORDS[k]}`);
  const uptimeText = s.show_uptime ? percentText(uptime, downMs) : null;
  return {
    label: `${what}, ${RANGE_WORDS[range].span} in ${unit}: ${said.join(', ')}${uptimeText ? `; uptime ${uptimeText}` : ''}.`,
    first: bars[0]?.period ?? '',
    unit: range === '24h' ? 'hour' : range === '7d' ? 'block' : range === '12mo' ? 'month' : 'day',
    html: barsHtml(bars, s),
    from,
    since: sinceOf(bars, range, tzMin),
    to: range === '24h' || range === '7d' ? 'Now' : range === '12mo' ? 'This month' : 'Today',
    uptime: uptimeText,
  };
}

export interface ServiceRowView {
  name: string;
  href: string | null;
  status: StatusView;
  uptime: string | null;
  typical: string | null;
  /** With show_locations: its response time from each of its locations ("vps-fra", "88 ms"). */
  locations: LocationView[] | null;
  strip: StripView;
  /** The ledger's columns: a row is rendered on its own (home-html.ts), so it carries them. */
  showUptime: boolean;
  showResponse: boolean;
}

export interface LocationView {
  name: string;
  ms: string;
}

/** A service's latency per location in words (null when the page does not show them or it has none). */
export function locationViews(svc: PublicService, s: PageSettings): LocationView[] | null {
  if (!s.show_locations || !svc.locations || svc.locations.length === 0) return null;
  return svc.locations.map((l) => ({ name: l.name, ms: msText(l.typical_ms) ?? 'no data' }));
}

export interface GroupView {
  name: string | null;
  status: StatusView & { groupText: string };
  uptime: string | null;
  count: string;
  /** Folded sections render as a closed <details>; `open` when something is wrong. */
  foldable: boolean;
  open: boolean;
  strip: StripView;
  services: ServiceRowView[];
}

export interface IncidentView {
  /** Null on a service's own page, where every incident is of that service. */
  name: string | null;
  href: string | null;
  started: TimeView;
  ended: TimeView | null;
  duration: string;
  open: boolean;
}

export interface RangeTab {
  label: string;
  href: string | null;
  current: boolean;
}

function link(ctx: PageContext, href: string): string | null {
  return ctx.preview ? null : href;
}

function msText(ms: number | null): string | null {
  if (ms === null) return null;
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${ms} ms`;
}

export function rangeTabs(ctx: PageContext, current: Range, base: string): RangeTab[] {
  return ctx.settings.ranges.map((r) => ({
    label: RANGE_WORDS[r].tab,
    href: link(ctx, `${base}?range=${r}`),
    current: r === current,
  }));
}

function serviceRow(svc: PublicService, range: Range, ctx: PageContext): ServiceRowView {
  const s = ctx.settings;
  return {
    name: svc.name,
    href: link(ctx, svc.page),
    status: serviceStatus(svc.status, svc.affected_by),
    uptime: s.show_uptime ? percentText(svc.uptime, svc.down_ms) : null,
    typical: s.show_response ? msText(svc.typical_ms) : null,
    locations: locationViews(svc, s),
    strip: strip(svc.bars, range, svc.from, svc.uptime, svc.down_ms, s, svc.name, ctx.tzMin),
    showUptime: s.show_uptime,
    showResponse: s.show_response,
  };
}

function groupView(g: PublicGroup, range: Range, ctx: PageContext, onlyGroup: boolean): GroupView {
  const s = ctx.settings;
  const status = { ...OVERALL_STATUS[g.status], groupText: GROUP_TEXT[g.status] };
  const foldable = s.fold_groups && g.name !== null && !onlyGroup;
  const down = g.bars.reduce((sum, b) => sum + b.down_ms, 0);
  return {
    name: g.name,
    status,
    uptime: s.show_uptime ? percentText(g.uptime, down) : null,
    count: `${g.services.length} service${g.services.length === 1 ? '' : 's'}`,
    foldable,
    open: !foldable || g.status !== 'operational',
    strip: strip(g.bars, range, RANGE_WORDS[range].ago, g.uptime, down, s, g.name ?? 'Services', ctx.tzMin),
    services: g.services.map((svc) => serviceRow(svc, range, ctx)),
  };
}

export function incidentView(i: PublicIncident, ctx: PageContext, withName = true): IncidentView {
  const start = Date.parse(i.started_at);
  const end = i.ended_at === null ? null : Date.parse(i.ended_at);
  // An end on the day it began shows its time only: "3 Mar 2026, 14:00 to 14:20".
  const sameDay = end !== null && localDay(start, ctx.tzMin) === localDay(end, ctx.tzMin);
  return {
    name: withName ? i.name : null,
    href: link(ctx, i.page),
    started: moment(i.started_at, ctx.tzMin),
    ended:
      end === null
        ? null
        : sameDay
          ? { iso: i.ended_at!, text: clockLabel(end, ctx.tzMin), f: 't' }
          : moment(i.ended_at!, ctx.tzMin),
    duration: formatDuration(i.duration_ms),
    open: i.ended_at === null,
  };
}

export interface ChromeView {
  preview: boolean;
  lang: string;
  docTitle: string;
  description: string | null;
  html: {
    layout: string;
    theme: string;
    palette: string;
    font: string;
    shape: string;
    style: string;
    refresh: boolean;
  };
  colorScheme: string;
  assets: PageContext['assets'];
  fontPreload: string | null;
  hasNav: boolean;
  logo: { src: string; alt: string } | null;
  title: string;
  homeHref: string | null;
  website: LinkView | null;
  links: LinkView[];
  historyHref: string | null;
  zone: string;
  updated: TimeView;
}

export function chrome(ctx: PageContext, docTitle: string): ChromeView {
  const s = ctx.settings;
  return {
    preview: ctx.preview,
    lang: 'en',
    docTitle,
    description: s.description || null,
    html: {
      layout: s.layout,
      theme: s.theme,
      palette: s.palette,
      font: s.font,
      shape: s.bar_shape,
      style: s.bar_style,
      refresh: s.auto_refresh && !ctx.preview,
    },
    colorScheme: s.theme === 'auto' ? 'light dark' : s.theme,
    assets: ctx.assets,
    fontPreload: ctx.assets.fonts[0] ?? null,
    hasNav: s.website !== null || s.links.length > 0,
    logo: ctx.logo ? { src: ctx.logo.src, alt: s.title } : null,
    title: s.title,
    homeHref: link(ctx, '/status'),
    website: s.website ? { label: s.website.label, href: link(ctx, s.website.url) } : null,
    links: s.links.map((l) => ({ label: l.label, href: link(ctx, l.url) })),
    historyHref: link(ctx, '/status/history'),
    zone: zoneLabel(ctx.tzMin),
    updated: { iso: new Date(ctx.now).toISOString(), text: momentLabel(ctx.now, ctx.tzMin), f: 'dt' },
  };
}

export interface SummaryItem {
  label: string;
  value: string;
  note: string;
}

export interface HomeView extends ChromeView {
  overall: StatusView;
  range: string;
  rangeWords: string;
  /** The ledger's history column heading. */
  rangeTab: string;
  showUptime: boolean;
  showResponse: boolean;
  columns: number;
  columnsBeforeHistory: number;
  tabs: RangeTab[];
  summary: SummaryItem[] | null;
  groups: GroupView[];
  empty: boolean;
  open: IncidentView[];
  recent: IncidentView[];
  /** The classic layout's "past incidents": the last seven local days, each with its incidents. */
  days: { label: string; incidents: IncidentView[] }[];
  /** Maintenance announced or in progress, shown above the services. */
  maintenance: MaintenanceItemView[];
}

export function homeView(m: PublicStatus, ctx: PageContext): HomeView {
  const s = ctx.settings;
  const words = RANGE_WORDS[m.range];
  const summary: SummaryItem[] = [];
  if (s.show_uptime)
    summary.push({
      label: 'Uptime',
      value: percentText(
        m.summary.uptime,
        m.groups.reduce((x, g) => x + g.bars.reduce((y, b) => y + b.down_ms, 0), 0),
      ),
      note: words.span,
    });
  summary.push({ label: 'Incidents', value: String(m.summary.incidents), note: words.span });
  summary.push({
    label: 'Longest incident',
    value: m.summary.longest_ms === null ? 'None' : formatDuration(m.summary.longest_ms),
    note: words.span,
  });
  if (s.show_response)
    summary.push({
      label: 'Typical response',
      value: msText(m.summary.typical_ms) ?? 'No data',
      note: 'median of the services',
    });
  const all = [...m.incidents.open, ...m.incidents.recent];
  const today = localDay(ctx.now, ctx.tzMin);
  const days = Array.from({ length: 7 }, (_, i) => today - i).map((d) => ({
    label: dayLabel(d),
    incidents: all.filter((x) => localDay(Date.parse(x.started_at), ctx.tzMin) === d).map((x) => incidentView(x, ctx)),
  }));
  return {
    ...chrome(ctx, m.title),
    overall: OVERALL_STATUS[m.overall],
    range: m.range,
    rangeWords: words.span,
    rangeTab: `Last ${words.tab}`,
    showUptime: s.show_uptime,
    showResponse: s.show_response,
    columns: 3 + (s.show_uptime ? 1 : 0) + (s.show_response ? 1 : 0),
    columnsBeforeHistory: 2 + (s.show_uptime ? 1 : 0) + (s.show_response ? 1 : 0),
    tabs: rangeTabs(ctx, m.range, ''),
    summary: s.show_summary ? summary : null,
    groups: m.groups.map((g) => groupView(g, m.range, ctx, m.groups.length === 1)),
    empty: m.groups.length === 0,
    open: m.incidents.open.map((i) => incidentView(i, ctx)),
    recent: m.incidents.recent.map((i) => incidentView(i, ctx)),
    days,
    maintenance: maintenanceViews(m.maintenance, ctx.tzMin),
  };
}
