/**
 * The public status JSON (spec "Public status JSON"), built from what the public may see and
 * nothing else: services carry their public name, section and status, and figures from the
 * rollups; incidents carry times only. Monitor ids are used inside (as `key`) to join rows and
 * never reach the answer; hosts, addresses, URLs and error texts are not inputs at all. The HTML
 * pages are drawn from this same model. Pure.
 */
import { toIso } from '../../common/time';
import type { MonitorStatus } from '../../probes/status';
import {
  addTally,
  averageOf,
  BAR_STATES,
  barRanks,
  BarState,
  emptyTally,
  Tallies,
  Tally,
  uptimeOf,
  worstRanks,
} from './bars';
import type { PageSettings, Range } from '../settings/look';
import { Overall, overallOf } from './overall';
import { dayLabel, localDay, momentLabel, Period, RANGE_WORDS, RangePlan } from './periods';
import { assignPageNames, pagePath } from './page-names';
import { PublicMaintenance, publicMaintenance } from './maintenance-view';
import type { PublicWindow } from '../../maintenance/public-windows';
import type { BarRound } from './fragments';
import type { LocationLatency } from './location-latency';

export interface ServiceInput {
  /** The monitor id: joins rows here, never shown. */
  key: number;
  name: string;
  group: string | null;
  sort: number;
  /** When watching began (the monitor's creation): bars before it are not_watched. */
  watchedFrom: number;
  status: MonitorStatus;
  /** Down because of another service's outage: that service's public name, or "another service" (docs/dependencies.md). */
  affectedBy?: string | null;
  /** How long after a moment its rollups may still change (tally-cache.ts). */
  horizonMs: number;
  /** Its latency from each of its locations, when the page shows them (location-latency.ts). */
  locations?: LocationLatency[];
}

export interface IncidentInput {
  key: number;
  started_at: number;
  ended_at: number | null;
}

export interface ModelInput {
  settings: Pick<PageSettings, 'title' | 'description' | 'ranges' | 'group_order'>;
  services: ServiceInput[];
  /** Per service key: its tally for each bar of the plan, in order. */
  tallies: Map<number, Tallies>;
  incidents: IncidentInput[];
  /** Public maintenance windows announced or active (maintenance/public-windows.ts). */
  maintenance?: PublicWindow[];
  plan: RangePlan;
  now: number;
  tzMin: number;
  /** Bars equal to the last build's are reused from it, with their kept text (fragments.ts). */
  reuse?: BarRound;
}

export interface PublicBar {
  period: string;
  label: string;
  state: BarState;
  uptime: number | null;
  down_ms: number;
  /** Time in maintenance: in neither side of `uptime` (docs/maintenance.md, "Uptime"). */
  maintenance_ms: number;
  avg_ms: number | null;
}

export interface PublicService {
  name: string;
  page: string;
  status: MonitorStatus;
  /** Down because of another service's outage: its public name, or "another service"; null otherwise. */
  affected_by: string | null;
  uptime: number | null;
  down_ms: number;
  typical_ms: number | null;
  /** With show_locations, a service checked from more than this service: its latency from each place. */
  locations?: LocationLatency[];
  from: string;
  bars: PublicBar[];
}

export interface PublicGroup {
  name: string | null;
  status: Overall;
  uptime: number | null;
  bars: PublicBar[];
  services: PublicService[];
}

export interface PublicIncident {
  name: string;
  page: string;
  started_at: string;
  ended_at: string | null;
  duration_ms: number;
}

export interface PublicStatus {
  title: string;
  description: string;
  overall: Overall;
  updated_at: string;
  range: Range;
  ranges: Range[];
  summary: {
    overall: Overall;
    uptime: number | null;
    incidents: number;
    longest_ms: number | null;
    typical_ms: number | null;
    services: number;
  };
  groups: PublicGroup[];
  incidents: { open: PublicIncident[]; recent: PublicIncident[] };
  /** Maintenance announced or in progress, only public names of public services (maintenance-view.ts). */
  maintenance: PublicMaintenance[];
}

/** How many ended incidents `incidents.recent` lists (newest first); the summary counts them all. */
export const RECENT_INCIDENTS = 20;

// One collator each: localeCompare with a locale builds one per call, which dominated page builds.
// Made on first use: the first Intl object of a process costs 10-15 ms (ICU's data), not for every start.
let collators: { base: Intl.Collator; text: Intl.Collator } | null = null;
function collate(): { base: Intl.Collator; text: Intl.Collator } {
  return (collators ??= { base: new Intl.Collator('en', { sensitivity: 'base' }), text: new Intl.Collator('en') });
}

/** Sections: those in group_order first, in its order; the rest by name; services without one lead. */
export function orderGroups(names: (string | null)[], groupOrder: readonly string[]): (string | null)[] {
  const unique = [...new Set(names)];
  const { base, text } = collate();
  const rank = (g: string | null) =>
    g === null ? -1 : groupOrder.includes(g) ? groupOrder.indexOf(g) : groupOrder.length;
  return unique.sort((a, b) => rank(a) - rank(b) || base.compare(a ?? '', b ?? '') || text.compare(a ?? '', b ?? ''));
}

/** Services in page order: by section, then sort, then name (the key only breaks full ties). */
export function orderServices(services: ServiceInput[], groupOrder: readonly string[]): ServiceInput[] {
  const rank = new Map(
    orderGroups(
      services.map((s) => s.group),
      groupOrder,
    ).map((g, i) => [g, i]),
  );
  const { text } = collate();
  return [...services].sort(
    (a, b) =>
      rank.get(a.group)! - rank.get(b.group)! || a.sort - b.sort || text.compare(a.name, b.name) || a.key - b.key,
  );
}

export function buildPublicStatus(input: ModelInput): PublicStatus {
  const { plan, now, tzMin } = input;
  // Made by toBar alone, from a period, a tally and a state: what fragments.ts compares to reuse a bar.
  const stripOf = (name: string, tallies: Tallies, ranks: Uint8Array): PublicBar[] =>
    input.reuse
      ? input.reuse.bars(name, plan.periods, tallies, ranks, toBar)
      : plan.periods.map((p, i) => toBar(p, tallies.at(i), BAR_STATES[ranks[i]]));
  const n = plan.periods.length;
  const averages = new Float64Array(n);
  const ordered = orderServices(input.services, input.settings.group_order);
  const names = assignPageNames(ordered.map((s) => s.name));
  const pages = new Map(ordered.map((s, i) => [s.key, pagePath(names[i])]));

  const services = new Map<number, { out: PublicService; total: Tally; perBar: Tallies; ranks: Uint8Array }>();
  for (const s of ordered) {
    const perBar = input.tallies.get(s.key) ?? new Tallies(n);
    const total = perBar.total();
    const ranks = barRanks(perBar, plan.periods, s.watchedFrom, plan.monthly);
    const bars = stripOf(`s${s.key}`, perBar, ranks);
    services.set(s.key, {
      total,
      perBar,
      ranks,
      out: {
        name: s.name,
        page: pages.get(s.key)!,
        status: s.status,
        affected_by: s.affectedBy ?? null,
        uptime: uptimeOf(total),
        down_ms: total.down_ms,
        typical_ms: typicalOf(bars, averages),
        ...(s.locations ? { locations: s.locations } : {}),
        from: fromText(plan, s.watchedFrom, tzMin),
        bars,
      },
    });
  }

  const groups = orderGroups(
    ordered.map((s) => s.group),
    input.settings.group_order,
  ).map((name): PublicGroup => {
    const members = ordered.filter((s) => s.group === name);
    const outs = members.map((s) => services.get(s.key)!);
    const total = emptyTally();
    for (const o of outs) addTally(total, o.total);
    return {
      name,
      status: overallOf(members.map((s) => s.status)),
      uptime: uptimeOf(total),
      // A section's bar: the state of its worst service; uptime, downtime and average over all of them together.
      bars: stripOf(
        `g${JSON.stringify(name)}`,
        sectionTallies(n, outs),
        worstRanks(
          outs.map((o) => o.ranks),
          n,
        ),
      ),
      services: outs.map((o) => o.out),
    };
  });

  const all = emptyTally();
  for (const s of services.values()) addTally(all, s.total);
  const inRange = input.incidents.filter(
    (i) => pages.has(i.key) && i.started_at <= now && (i.ended_at === null || i.ended_at >= plan.start),
  );
  const asPublic = (i: IncidentInput): PublicIncident => ({
    name: services.get(i.key)!.out.name,
    page: pages.get(i.key)!,
    started_at: toIso(i.started_at),
    ended_at: toIso(i.ended_at),
    duration_ms: (i.ended_at ?? Math.max(now, i.started_at)) - i.started_at,
  });
  const newestFirst = (a: IncidentInput, b: IncidentInput) => b.started_at - a.started_at || b.key - a.key;
  const open = inRange
    .filter((i) => i.ended_at === null)
    .sort(newestFirst)
    .map(asPublic);
  const recent = inRange
    .filter((i) => i.ended_at !== null)
    .sort((a, b) => b.ended_at! - a.ended_at! || newestFirst(a, b))
    .slice(0, RECENT_INCIDENTS)
    .map(asPublic);
  const durations = inRange.map((i) => (i.ended_at ?? Math.max(now, i.started_at)) - i.started_at);
  const overall = overallOf(ordered.map((s) => s.status));

  return {
    title: input.settings.title,
    description: input.settings.description,
    overall,
    updated_at: toIso(now),
    range: plan.range,
    ranges: [...input.settings.ranges],
    summary: {
      overall,
      uptime: uptimeOf(all),
      incidents: inRange.length,
      longest_ms: durations.length ? Math.max(...durations) : null,
      typical_ms: median([...services.values()].map((s) => s.out.typical_ms).filter((v): v is number => v !== null)),
      services: ordered.length,
    },
    groups,
    incidents: { open, recent },
    maintenance: publicMaintenance(input.maintenance ?? [], ordered),
  };
}

function sectionTallies(n: number, outs: readonly { perBar: Tallies }[]): Tallies {
  const t = new Tallies(n);
  for (const o of outs) t.addAll(o.perBar);
  return t;
}

/** A bar is made from these three alone (fragments.ts reuses it while they stay the same). */
function toBar(p: Period, t: Tally, state: BarState): PublicBar {
  return {
    period: p.id,
    label: p.label,
    state,
    uptime: uptimeOf(t),
    down_ms: t.down_ms,
    maintenance_ms: t.maint_ms,
    avg_ms: averageOf(t),
  };
}

function median(values: number[]): number | null {
  return medianOf(Float64Array.from(values));
}

/**
 * Each strip's typical_ms, kept with it: a strip is never changed once made, and most strips of a
 * build are the last build's own arrays (fragments.ts).
 */
const typicals = new WeakMap<PublicBar[], number | null>();

/** A service's typical_ms: the median of its bars' averages (medianAverage), once per strip. */
function typicalOf(bars: PublicBar[], scratch: Float64Array): number | null {
  let typical = typicals.get(bars);
  if (typical === undefined) typicals.set(bars, (typical = medianAverage(bars, scratch)));
  return typical;
}

/** The median of the bars' averages (a service's typical_ms), sorted in `scratch` (at least as long as the bars). */
function medianAverage(bars: readonly PublicBar[], scratch: Float64Array): number | null {
  let k = 0;
  for (const b of bars) if (b.avg_ms !== null) scratch[k++] = b.avg_ms;
  return medianOf(scratch.subarray(0, k));
}

/** Sorts `values` in place; the middle one, or the rounded mean of the two middle ones; null for none. */
function medianOf(values: Float64Array): number | null {
  if (values.length === 0) return null;
  const sorted = values.sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

/** Where a service's bars begin, in words: the range's start, or the day watching began inside it. */
export function fromText(plan: RangePlan, watchedFrom: number, tzMin: number): string {
  if (watchedFrom <= plan.start) return RANGE_WORDS[plan.range].ago;
  return plan.table === 'rollup_hour'
    ? `Since ${momentLabel(watchedFrom, tzMin)}`
    : `Since ${dayLabel(localDay(watchedFrom, tzMin))}`;
}
