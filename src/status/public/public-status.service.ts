/**
 * The public answers: the status JSON and the HTML pages (home, a service's page, the incident
 * history), built from the public model and cached for 30 s (spec: "page cached 30 s"). The
 * cache is dropped whenever the page's settings, logo or icon change and whenever a monitor
 * changes or is deleted (a monitor made private leaves the page at once, not 30 s later).
 * A preview draws the same page from the saved settings with a draft on top, uncached.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../common/clock';
import { render } from '../../common/resources/views';
import { EventBus } from '../../events/event-bus';
import { SettingsService } from '../../settings/settings.service';
import { Packed } from '../../common/http/compression/compression';
import { historyView, serviceView } from './detail-views';
import { historyWindow } from './history-pages';
import { PageSettings, pickRange, Range } from '../settings/look';
import { assignPageNames, pagePath } from './page-names';
import { homeView, PageContext } from './page-view';
import { planRange } from './periods';
import { PublicData, PublicOverride } from './public-data';
import { locationLatencies } from './location-latency';
import {
  buildPublicStatus,
  orderServices,
  PublicIncident,
  PublicService,
  PublicStatus,
  ServiceInput,
} from './public-model';
import { StatusAssets } from '../assets/status-assets';
import { StatusPageRepository } from '../settings/status-page.repository';
import { onPageHost } from '../settings/hosts';
import { toIso } from '../../common/time';
import type { PublicIncidentFacts } from '../feeds/feed-xml';
import { Database } from '../../db/database';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config';
import { TURNSTILE_ORIGIN } from '../../common/http/security-headers';

/** The widget's script, rendering every `.cf-turnstile` of the page by itself: the form stays a plain POST. */
const TURNSTILE_SCRIPT = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js`;
import { readPublicWindows } from '../../maintenance/public-windows';
import { BarMemo, publicStatusJson } from './fragments';
import { HomeModel, homeHtml, renderHomeWhole, RowMemo } from './home-html';

export const CACHE_MS = 30_000;
/** A service page lists its incidents of the last 12 months, newest first, at most this many. */
export const SERVICE_INCIDENTS = 50;

interface Built {
  model: PublicStatus;
  /** Page path -> monitor id, for the service pages (never shown). */
  keys: Map<string, number>;
}

/** The draft a preview lays over the saved page. */
export interface Draft {
  settings: PageSettings;
  overrides: Map<number, PublicOverride>;
}

@Injectable()
export class PublicStatusService {
  /** Answers per range: a handful, never pushed out by anything a visitor can ask for. */
  private readonly main = new Map<string, Kept>();
  /** Service pages and history pages: any name or month may be asked for, so kept apart and bounded. */
  private readonly pages = new Map<string, Kept>();
  private generation = 0;
  /** The bars of the last build of each range, reused where equal (fragments.ts). */
  private readonly bars = new BarMemo();
  /** The home page's rows of the last build of each range, as bytes (home-html.ts). */
  private readonly rows = new RowMemo();

  constructor(
    private readonly data: PublicData,
    private readonly repo: StatusPageRepository,
    private readonly settingsService: SettingsService,
    private readonly assets: StatusAssets,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly db: Database,
    bus: EventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    bus.on('monitor.changed', () => this.invalidate());
    // A window's start or end shows at once, not up to 30 s later.
    bus.on('maintenance', () => this.invalidate());
    bus.on('monitor.deleted', ({ id }) => {
      this.data.forget(id);
      this.invalidate();
    });
  }

  /** Drops every cached answer (settings, logo, icon or monitors changed). */
  invalidate(): void {
    this.generation += 1;
    this.main.clear();
    this.pages.clear();
  }

  /**
   * The home page or the JSON of this range (`range`: the raw query value), for the fast path
   * (public-fast-path.ts), which sends it without the framework, when the settings it depends on
   * are in memory and the page is published: the kept answer itself while it is built and fresh,
   * else the promise of the build that makes it (shared with every request that asks meanwhile,
   * and kept as any build is). Null sends the request the usual way, which reads the settings,
   * refuses or builds as the controller says (an unpublished page, settings just dropped by a write).
   */
  fastAnswer(
    kind: 'home' | 'json',
    range: string | undefined,
  ): { packed: Packed | Promise<Packed>; settings: PageSettings } | null {
    const settings = this.repo.peekSettings();
    const tz = this.settingsService.peek()?.tz_offset_min;
    if (settings === null || tz === undefined || !settings.enabled) return null;
    const picked = pickRange(range, settings);
    const hit = this.main.get(`${tz}|${kind}:${picked}`);
    if (hit?.ready !== undefined && fresh(hit, this.clock.now())) return { packed: hit.ready as Packed, settings };
    return { packed: kind === 'json' ? this.json(picked) : this.home(picked), settings };
  }

  /**
   * The request's Host is one of the page's own hosts, where `/` is the status page
   * (PageHostMiddleware), as far as the settings in memory say: false while they are not read.
   */
  isPageHost(hostHeader: string | undefined): boolean {
    const settings = this.repo.peekSettings();
    return settings !== null && onPageHost(settings.hosts, hostHeader);
  }

  /** The range a request asked for, or the page's default. */
  async range(raw: unknown): Promise<Range> {
    return pickRange(raw, await this.repo.getSettings());
  }

  async json(range: Range): Promise<Packed> {
    return this.cached(
      `json:${range}`,
      this.main,
      async () => new Packed(publicStatusJson((await this.built(range)).model)),
    );
  }

  async home(range: Range): Promise<Packed> {
    return this.cached(`home:${range}`, this.main, async () => {
      const { model } = await this.built(range);
      const ctx = await this.context(false);
      const rows = this.rows.round(range);
      const html = homeHtml(model, this.homeModel(model, ctx), ctx.settings.layout, rows);
      rows.done();
      return new Packed(html);
    });
  }

  /**
   * A public service by its page name (its public slug), as the page shows it for `range`; null
   * when no public service has that name or the page is not published (badges: docs/badges.md).
   */
  async publicService(name: string, range: Range): Promise<PublicService | null> {
    if (!(await this.repo.getSettings()).enabled) return null;
    return findService((await this.built(range)).model, pagePath(name));
  }

  /**
   * The newest incidents of the public services (of any age), newest first, with the public name
   * and page of each; null while the page is not published (the feeds: docs/status-page.md).
   */
  async latestIncidents(limit: number): Promise<PublicIncidentFacts[] | null> {
    const settings = await this.repo.getSettings();
    if (!settings.enabled) return null;
    const names = pageNamesOf(await this.data.services(), settings);
    const rows = await this.data.latestIncidents([...names.keys()], limit);
    return rows.flatMap((r) => {
      const n = names.get(r.key);
      return n ? [{ id: r.id, name: n.name, page: n.page, started_at: r.started_at, ended_at: r.ended_at }] : [];
    });
  }

  /** A service's page, or null when no public service has that page name (such answers are not kept). */
  async service(name: string, range: Range): Promise<Packed | null> {
    const page = pagePath(name);
    if (!(await this.built(range)).keys.has(page)) return null;
    return this.cached(`service:${range}:${name}`, this.pages, async () => {
      const built = await this.built(range);
      const key = built.keys.get(page);
      if (key === undefined) return null;
      const year = range === '12mo' ? built : await this.built('12mo');
      const svc = findService(built.model, page);
      const yearSvc = findService(year.model, page);
      if (!svc || !yearSvc) return null;
      const ctx = await this.context(false);
      const rows = await this.data.incidentsBetween([key], planRange('12mo', ctx.now, ctx.tzMin).start, ctx.now + 1);
      const incidents = rows.slice(0, SERVICE_INCIDENTS).map((i) => publicIncident(i, svc.name, page, ctx.now));
      return new Packed(
        render('status/service', { ...serviceView(svc, yearSvc, range, incidents, ctx) }, 'status/layout'),
      );
    });
  }

  async history(before: unknown): Promise<Packed> {
    const key = `history:${typeof before === 'string' ? before.slice(0, 20) : ''}`;
    return this.cached(key, this.pages, async () => {
      const ctx = await this.context(false);
      const services = await this.data.services();
      const keys = services.map((s) => s.key);
      const window = historyWindow(before, ctx.now, ctx.tzMin, await this.data.firstIncident(keys));
      const last = window.months[0];
      const first = window.months[window.months.length - 1];
      const names = pageNamesOf(services, ctx.settings);
      const rows = await this.data.incidentsBetween(keys, first.start, last.end);
      const incidents = rows.map((i) => publicIncident(i, names.get(i.key)!.name, names.get(i.key)!.page, ctx.now));
      return new Packed(render('status/history', { ...historyView(window, incidents, ctx) }, 'status/layout'));
    });
  }

  /** POST /status-page/preview: the home page with the draft on top; nothing cached or stored. */
  async preview(draft: Draft, rawRange: unknown): Promise<{ html: string; range: Range }> {
    const range = pickRange(rawRange, draft.settings);
    const { model } = await this.build(range, draft.settings, draft.overrides);
    const ctx = await this.context(true, draft.settings);
    return { html: renderHomeWhole(ctx.settings.layout, this.homeModel(model, ctx)), range };
  }

  private homeModel(model: PublicStatus, ctx: PageContext): HomeModel {
    const view = homeView(model, ctx);
    // The subscribe form (docs/subscribers.md), inert in a preview like every link there.
    const subscribe = ctx.settings.subscribers
      ? { siteKey: this.config.challenge?.siteKey ?? null, preview: ctx.preview, script: TURNSTILE_SCRIPT }
      : null;
    return { ...view, subscribe };
  }

  async context(preview: boolean, draft?: PageSettings): Promise<PageContext> {
    const settings = draft ?? (await this.repo.getSettings());
    const logo = await this.repo.asset('logo');
    const icon = await this.repo.asset('icon');
    return {
      settings,
      preview,
      tzMin: (await this.settingsService.get()).tz_offset_min,
      now: this.clock.now(),
      logo: logo ? { src: `/status/logo?v=${logo.v}` } : null,
      assets: {
        css: `/status.css?v=${this.assets.css.v}`,
        js: `/status.js?v=${this.assets.js.v}`,
        theme: `/status/theme.css?a=${settings.accent.slice(1)}&v=${this.assets.theme(settings.accent).v}`,
        fonts: this.assets.fontUrls(settings.font),
        icon: `/status/icon.png?v=${icon?.v ?? this.assets.icon512.v}`,
        appleIcon: `/apple-touch-icon.png?v=${icon?.v ?? this.assets.appleIcon.v}`,
      },
    };
  }

  private built(range: Range): Promise<Built> {
    return this.cached(`built:${range}`, this.main, async () =>
      this.build(range, await this.repo.getSettings(), new Map(), this.bars),
    );
  }

  /** `memo`: the saved page's bars to reuse (a preview's draft reuses and keeps none). */
  private async build(
    range: Range,
    settings: PageSettings,
    overrides: Map<number, PublicOverride>,
    memo?: BarMemo,
  ): Promise<Built> {
    const now = this.clock.now();
    const tzMin = (await this.settingsService.get()).tz_offset_min;
    const plan = planRange(range, now, tzMin);
    // What needs no list of the services is read beside it, asked for after it (SQLite runs one
    // connection's reads in the order asked, and the tallies' read waits for the list): the
    // windows, and the saved page's incidents (a preview's draft may add services, so its
    // incidents wait for the list). A monitor made public or private between the reads changes
    // the monitors, which drops this build (invalidate); the model shows the incidents of the
    // services listed and no others.
    const listing = this.data.services(overrides);
    const windows = settled(readPublicWindows(this.db, now));
    const early = overrides.size === 0 ? settled(this.data.publicIncidents(plan.start)) : null;
    const listed = await listing;
    const keys = listed.map((s) => s.key);
    const latencies = settings.show_locations ? await locationLatencies(this.db, keys, now) : null;
    const services = latencies ? listed.map((s) => ({ ...s, locations: latencies.get(s.key) })) : listed;
    const [tallies, incidents, maintenance] = await Promise.all([
      this.data.range(services, plan, now, tzMin),
      early ?? this.data.incidents(keys, plan.start),
      windows,
    ]);
    const reuse = memo?.round(range, plan.periods);
    const model = buildPublicStatus({ settings, services, tallies, incidents, maintenance, plan, now, tzMin, reuse });
    reuse?.done();
    const names = pageNamesOf(services, settings);
    return { model, keys: new Map([...names].map(([key, n]) => [n.page, key])) };
  }

  /**
   * One build per key at a time: requests that arrive while it is being built wait for it. The
   * time zone is part of every key, so a new zone in the service settings shows at once.
   */
  private async cached<T>(key: string, cache: Map<string, Kept>, make: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const tz = (await this.settingsService.get()).tz_offset_min;
    const full = `${tz}|${key}`;
    const hit = cache.get(full);
    if (hit && fresh(hit, now)) return hit.value as Promise<T>;
    const generation = this.generation;
    const value = make();
    const kept: Kept = { at: now, value };
    cache.set(full, kept);
    const drop = () => {
      if (cache.get(full) === kept) cache.delete(full);
    };
    // A failed build is not kept; nor is one that began before an invalidation and ends after it.
    void value.then((built) => {
      if (generation !== this.generation) drop();
      else kept.ready = built;
    }, drop);
    if (cache.size > 200) {
      for (const [k, v] of cache) if (!fresh(v, now)) cache.delete(k);
      if (cache.size > 200) cache.clear();
    }
    return value;
  }
}

/**
 * The same promise, marked as handled: a read started ahead of an await that may throw first is
 * not an unhandled rejection; awaiting it later still throws its error.
 */
function settled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** A kept answer: the promise of its build, and once built, its value (`ready`). */
interface Kept {
  at: number;
  value: Promise<unknown>;
  ready?: unknown;
}

/** Kept for CACHE_MS from its build's start (a clock set back drops it). */
function fresh(k: Kept, now: number): boolean {
  return now - k.at < CACHE_MS && now >= k.at;
}

function findService(m: PublicStatus, page: string): PublicService | null {
  for (const g of m.groups) for (const s of g.services) if (s.page === page) return s;
  return null;
}

function pageNamesOf(services: ServiceInput[], settings: PageSettings): Map<number, { name: string; page: string }> {
  const ordered = orderServices(services, settings.group_order);
  const names = assignPageNames(ordered.map((s) => s.name));
  return new Map(ordered.map((s, i) => [s.key, { name: s.name, page: pagePath(names[i]) }]));
}

function publicIncident(
  i: { started_at: number; ended_at: number | null },
  name: string,
  page: string,
  now: number,
): PublicIncident {
  return {
    name,
    page,
    started_at: toIso(i.started_at),
    ended_at: toIso(i.ended_at),
    duration_ms: (i.ended_at ?? Math.max(now, i.started_at)) - i.started_at,
  };
}
