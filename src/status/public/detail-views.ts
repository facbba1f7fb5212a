/**
 * View models of a service's own page and of the incident history, built like the home page's
 * (page-view.ts) from public models only. Pure.
 */
import { formatDuration } from '../../common/time';
import { percentText } from './bars';
import { Chart, drawChart } from './chart';
import type { HistoryWindow } from './history-pages';
import type { Range } from '../settings/look';
import { RANGE_WORDS } from './periods';
import type { PublicIncident, PublicService } from './public-model';
import {
  chrome,
  ChromeView,
  incidentView,
  IncidentView,
  locationViews,
  PageContext,
  rangeTabs,
  RangeTab,
  serviceStatus,
  StatusView,
  strip,
  StripView,
  SummaryItem,
} from './page-view';

export interface MonthTile {
  label: string;
  cls: string;
  uptime: string;
}

export interface BarRow {
  label: string;
  state: string;
  uptime: string;
  down: string;
  avg: string;
}

export interface ServiceView extends ChromeView {
  name: string;
  range: Range;
  unit: string;
  unitTitle: string;
  status: StatusView;
  tabs: RangeTab[];
  rangeWords: string;
  strip: StripView;
  stats: SummaryItem[];
  chart: (Chart & { title: string }) | null;
  months: MonthTile[];
  incidents: IncidentView[];
  rows: BarRow[];
}

const UNIT: Record<Range, [string, string]> = {
  '24h': ['hour', 'Hour'],
  '7d': ['six hours', 'Block'],
  '30d': ['day', 'Day'],
  '90d': ['day', 'Day'],
  '12mo': ['month', 'Month'],
};

const STATE_TEXT: Record<string, string> = {
  not_watched: 'Not watched',
  no_data: 'No data',
  ok: 'No downtime',
  warn: 'Some downtime',
  bad: 'Major downtime',
  maintenance: 'Mostly maintenance',
};

/**
 * `svc` in the requested range, `year` the same service in 12mo, `incidents` its incidents of the
 * last 12 months, newest first.
 */
export function serviceView(
  svc: PublicService,
  year: PublicService,
  range: Range,
  incidents: PublicIncident[],
  ctx: PageContext,
): ServiceView {
  const s = ctx.settings;
  const words = RANGE_WORDS[range];
  const stats: SummaryItem[] = [];
  if (s.show_uptime) stats.push({ label: 'Uptime', value: percentText(svc.uptime, svc.down_ms), note: words.span });
  stats.push({ label: 'Downtime', value: svc.down_ms === 0 ? 'None' : formatDuration(svc.down_ms), note: words.span });
  const maintMs = svc.bars.reduce((sum, b) => sum + b.maintenance_ms, 0);
  if (maintMs > 0) stats.push({ label: 'Maintenance', value: formatDuration(maintMs), note: 'left out of uptime' });
  if (s.show_response)
    stats.push({
      label: 'Typical response',
      value: svc.typical_ms === null ? 'No data' : `${svc.typical_ms} ms`,
      note: `median, ${words.span}`,
    });
  // show_locations: one tile per location, over the last 24 hours whatever the range (location-latency.ts).
  for (const l of locationViews(svc, s) ?? [])
    stats.push({ label: `From ${l.name}`, value: l.ms, note: 'average of good checks, last 24 hours' });
  return {
    ...chrome(ctx, `${svc.name} · ${s.title}`),
    name: svc.name,
    range,
    unit: UNIT[range][0],
    unitTitle: UNIT[range][1],
    status: serviceStatus(svc.status, svc.affected_by),
    tabs: rangeTabs(ctx, range, ''),
    rangeWords: words.span,
    strip: strip(svc.bars, range, svc.from, svc.uptime, svc.down_ms, s, svc.name, ctx.tzMin),
    stats,
    chart: s.show_response
      ? {
          ...drawChart(
            svc.bars.map((b) => ({ label: b.label, avg_ms: b.avg_ms })),
            words.span,
          ),
          title: `Response time, ${words.span}`,
        }
      : null,
    months: year.bars.map((b) => ({
      label: shortMonth(b.label),
      cls: b.state,
      uptime:
        b.state === 'not_watched'
          ? 'Not watched'
          : b.state === 'no_data'
            ? 'No data'
            : b.uptime === null
              ? 'Maintenance'
              : s.show_uptime
                ? percentText(b.uptime, b.down_ms)
                : STATE_TEXT[b.state],
    })),
    incidents: incidents.map((i) => incidentView(i, ctx, false)),
    rows: [...svc.bars].reverse().map((b) => ({
      label: b.label,
      state: STATE_TEXT[b.state],
      uptime: b.uptime === null ? '–' : percentText(b.uptime, b.down_ms),
      down: b.down_ms === 0 ? '–' : formatDuration(b.down_ms),
      avg: b.avg_ms === null ? '–' : `${b.avg_ms} ms`,
    })),
  };
}

/** "September 2026" -> "Sep 2026". */
function shortMonth(label: string): string {
  const [month, year] = label.split(' ');
  return `${month.slice(0, 3)} ${year}`;
}

export interface HistoryView extends ChromeView {
  months: { label: string; incidents: IncidentView[] }[];
  newerHref: string | null;
  olderHref: string | null;
  first: boolean;
}

export function historyView(window: HistoryWindow, incidents: PublicIncident[], ctx: PageContext): HistoryView {
  const href = (before: string | null) =>
    before === null || ctx.preview ? null : before === '' ? '/status/history' : `/status/history?before=${before}`;
  return {
    ...chrome(ctx, `Incident history · ${ctx.settings.title}`),
    months: window.months.map((m) => ({
      label: m.label,
      incidents: incidents
        .filter((i) => Date.parse(i.started_at) >= m.start && Date.parse(i.started_at) < m.end)
        .map((i) => incidentView(i, ctx)),
    })),
    newerHref: href(window.newer),
    olderHref: href(window.older),
    first: window.first,
  };
}
