/**
 * POST /import (docs/export-import.md): an export document applied as one transaction, all or
 * nothing. Channels are matched by name and monitors by slug; monitors name their channels by
 * name. `dry_run` (the default) answers exactly what a real run would do and writes nothing.
 *
 * 1. Check everything against what is stored, outside the transaction (checking thousands of
 *    monitors is the slow part and must not hold up the check writer). Any error: answer it,
 *    write nothing.
 * 2. In the transaction, plan again on a fresh read (a monitor parse is reused when its stored
 *    monitor did not change meanwhile), write the channels first (new ones get their ids), then
 *    the monitors with their channel ids, the status page section and one `imported` line. A
 *    problem found only now (another request changed something in between) rolls it all back
 *    and is answered like any other error.
 * 3. After the commit: the channels' memory follows the table, and the monitors are announced on
 *    the bus (the engine schedules them), as every other change does.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { EngineService } from '../engine/engine.service';
import { allWindows, WindowRow } from '../engine/maintenance/windows.table';
import { MaintenanceImport, planMaintenanceImport } from './maintenance-section';
import { SubscribersImport, SubscribersService } from '../subscribers/subscribers.service';
import { EntityManager } from 'typeorm';
import type { FieldError } from '../common/http/api-error';
import { actorName, Caller } from '../common/access/caller';
import { NOTHING_STORED } from '../common/secrets/secret-fields';
import { Database } from '../db/database';
import { BusEvents, EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { MonitorsRepository, StoredMonitor } from '../catalog/monitors.repository';
import type { Channel } from '../channels/channel-body';
import { ChannelsService } from '../channels/channels.service';
import { canonicalJson } from '../common/canonical';
import { parseMonitorBody, ParseResult } from '../monitors/monitor-input';
import { MonitorsService } from '../monitors/monitors.service';
import { DependsOnService } from '../monitors/depends-on/depends-on.service';
import { DependencyRef, DependencyTarget, writeOrder } from '../monitors/depends-on/depends-on-plan';
import type { MonitorConfig } from '../probes/monitor-config';
import type { MonitorDefaults } from '../settings/settings-defaults';
import { SettingsService } from '../settings/settings.service';
import { TOKEN_FIELD } from './export-document';
import {
  hasErrors,
  ImportAnswer,
  ImportEnvelope,
  MonitorItem,
  planChannels,
  readImportEnvelope,
  splitMonitorItem,
  TokenHolders,
} from './import-document';
import { StatusPageService } from '../status/settings/status-page.service';
import { importStatusPage, StatusPageImport } from './status-page-section';

/** Monitors checked between two turns of the event loop. */
const YIELD_EVERY = 100;

interface Stored {
  monitor: StoredMonitor;
  tokenHash: string | null;
}

interface MonitorPlan {
  index: number;
  slug: string;
  config: MonitorConfig;
  existing: Stored | null;
  /** A token hash to write, or null to leave the token as it is. */
  setToken: string | null;
  outcome: 'created' | 'updated' | 'unchanged';
  refs: DependencyRef[];
  /** Its parents; a monitor new in this import gets its id when inserted (writeOrder puts it first). */
  targets: DependencyTarget[];
}

interface Plan {
  answer: ImportAnswer;
  monitors: MonitorPlan[];
  statusPage: StatusPageImport;
  maintenance: MaintenanceImport;
  subscribers: SubscribersImport;
}

/** A plan made inside the transaction found errors: the transaction is rolled back and this answer given. */
class ChangedMeanwhile extends Error {
  constructor(readonly answer: ImportAnswer) {
    super('the import no longer applies');
  }
}

type Parser = (index: number, body: Record<string, unknown>, previous: MonitorConfig | null) => ParseResult;

@Injectable()
export class ImportService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly monitors: MonitorsService,
    private readonly channels: ChannelsService,
    private readonly settings: SettingsService,
    private readonly events: EventsService,
    private readonly pages: StatusPageService,
    private readonly bus: EventBus,
    private readonly engine: EngineService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly dependsOn: DependsOnService,
    private readonly subscribers: SubscribersService,
  ) {}

  private windowSlugs(raw: unknown): string[] {
    if (!Array.isArray(raw)) return [];
    const slugs = raw.flatMap((w: unknown) => {
      const list = (w as { monitors?: unknown } | null)?.monitors;
      return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
    });
    return [...new Set(slugs)];
  }

  async run(body: unknown, caller: Caller | null): Promise<ImportAnswer> {
    const doc = readImportEnvelope(body);
    const parse = cachedParser((await this.settings.get()).defaults);
    const first = await this.plan(doc, parse, this.db.manager, null);
    if (doc.dryRun || hasErrors(first.answer)) return first.answer;

    let done: {
      answer: ImportAnswer;
      saved: { channel: Channel; before: Channel | null }[];
      changes: BusEvents['monitor.changed'][];
      tokens: number[];
      windows: WindowRow[];
      pageFields: readonly string[];
    };
    try {
      done = await this.db.tx(async (m) => {
        // Channels first, planned on what is stored now; then monitors with the channels' real ids.
        const channelPlan = planChannels(doc.channels, this.channels.all());
        const saved: { channel: Channel; before: Channel | null }[] = [];
        if (channelPlan.errors.length === 0) {
          for (const p of channelPlan.plans)
            if (p.outcome !== 'unchanged')
              saved.push({ channel: await this.channels.saveIn(m, p.input, p.existing, caller), before: p.existing });
        }
        const ids = new Map<string, number>(saved.map((s) => [s.channel.name, s.channel.id]));
        const plan = await this.plan(doc, parse, m, ids);
        if (hasErrors(plan.answer)) throw new ChangedMeanwhile(plan.answer);
        const out = await this.writeMonitors(m, plan.monitors, caller);
        await plan.statusPage.applyIn(m, actorName(caller));
        const bySlug = await this.repo.findBySlugs(this.windowSlugs(doc.maintenance), m);
        const windows = await plan.maintenance.applyIn(m, (slug) => bySlug.get(slug)?.id, this.clock.now());
        await plan.subscribers.applyIn(m);
        // Like a PATCH that changes nothing, an import that changes nothing leaves no line.
        if (changedAnything(plan.answer)) {
          await this.events.recordIn(m, {
            kind: 'imported',
            text: `import applied: ${summary(plan.answer)}`,
            actor: actorName(caller),
            data: {
              monitors: { created: plan.answer.created.length, updated: plan.answer.updated.length },
              channels: { created: plan.answer.channels.created.length, updated: plan.answer.channels.updated.length },
              maintenance: {
                created: plan.answer.maintenance.created.length,
                updated: plan.answer.maintenance.updated.length,
              },
            },
          });
        }
        return {
          answer: { ...plan.answer, applied: true },
          saved,
          ...out,
          windows,
          pageFields: plan.statusPage.fields,
        };
      });
    } catch (err) {
      if (err instanceof ChangedMeanwhile) return err.answer;
      throw err;
    }
    await this.channels.committed(done.saved);
    this.pages.committed(done.pageFields);
    for (const c of done.changes) this.bus.emit('monitor.changed', c);
    for (const id of done.tokens) this.bus.emit('monitor.token', { id });
    for (const w of done.windows) this.engine.maintenance.put(w);
    return done.answer;
  }

  /**
   * What the document would do to what is stored (read through `m`). `channelIds` gives the ids of
   * channels written in this transaction; outside it (null) a channel not stored yet gets a
   * stand-in id that no stored channel has, so a monitor that would name it counts as changed.
   */
  private async plan(
    doc: ImportEnvelope,
    parse: Parser,
    m: EntityManager,
    channelIds: ReadonlyMap<string, number> | null,
  ): Promise<Plan> {
    const stored = this.channels.all();
    const channelPlan = planChannels(doc.channels, stored);
    const storedByName = new Map<string, Channel[]>();
    for (const c of stored) storedByName.set(c.name, [...(storedByName.get(c.name) ?? []), c]);
    const inDoc = new Map(channelPlan.plans.map((p) => [p.name, p]));
    const docNames = new Set(doc.channels.map((c) => (isNamed(c) ? c.name : null)));
    const channelProblem = (name: string): string | null => {
      if (docNames.has(name)) return null;
      const here = storedByName.get(name)?.length ?? 0;
      if (here === 0) return `there is no channel named "${name.slice(0, 100)}" here or in this import`;
      if (here > 1)
        return `${here} channels here are named "${name.slice(0, 100)}"; rename all but one so the import can tell which one it means`;
      return null;
    };
    const idOf = (name: string): number => {
      const fromDoc = inDoc.get(name);
      if (fromDoc) return channelIds?.get(name) ?? fromDoc.existing?.id ?? -(fromDoc.index + 1);
      return storedByName.get(name)![0].id;
    };

    const answer: ImportAnswer = {
      dry_run: doc.dryRun,
      applied: false,
      created: [],
      updated: [],
      unchanged: [],
      errors: [],
      channels: { created: [], updated: [], unchanged: [], errors: channelPlan.errors },
      status_page: { changed: false, errors: [] },
      maintenance: { created: [], updated: [], unchanged: [], errors: [] },
    };
    for (const p of channelPlan.plans) answer.channels[p.outcome].push(p.name);

    const items = doc.monitors.map((item, index) => ({ index, split: splitMonitorItem(item, channelProblem) }));
    const slugs = items.flatMap(({ split }) =>
      split.ok ? [split.item.slug] : split.slug !== null ? [split.slug] : [],
    );
    const existing = await this.storedBySlugs([...new Set(slugs)], m);
    const hashes = items.flatMap(({ split }) =>
      split.ok && split.item.token !== null && split.item.token !== 'keep' ? [split.item.token] : [],
    );
    const holders = new TokenHolders(await this.tokenHolders([...new Set(hashes)], m));
    const seen = new Set<string>();
    const monitors: MonitorPlan[] = [];
    for (const { index, split } of items) {
      // Checking a monitor takes about half a millisecond of CPU: let checks and pings run between batches.
      if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
      const slug = split.ok ? split.item.slug : split.slug;
      const fail = (fields: FieldError[]) => answer.errors.push({ slug, index, fields });
      if (slug !== null && seen.has(slug)) {
        fail([{ field: 'slug', message: 'appears more than once in this import; monitors are matched by slug' }]);
        continue;
      }
      if (slug !== null) seen.add(slug);
      if (!split.ok) {
        fail(split.fields);
        continue;
      }
      const previous = existing.get(split.item.slug) ?? null;
      const parsed = parse(index, split.item.body, previous?.monitor.config ?? null);
      // The token is judged whatever the parse found, so one answer lists every problem of the item.
      const token = tokenFor(split.item, previous);
      const tokenProblem = !token.ok
        ? token.message
        : token.set === null
          ? null
          : holders.claim(token.set, index, split.item.slug);
      if (!parsed.ok || !token.ok || tokenProblem) {
        fail([
          ...(parsed.ok ? [] : parsed.errors),
          ...(tokenProblem ? [{ field: TOKEN_FIELD, message: tokenProblem }] : []),
        ]);
        continue;
      }
      const config: MonitorConfig = {
        ...parsed.config,
        channels: split.item.channelNames === null ? null : split.item.channelNames.map(idOf),
      };
      monitors.push({
        index,
        slug: split.item.slug,
        config,
        existing: previous,
        setToken: token.set,
        outcome: 'created',
        refs: parsed.dependsOn,
        targets: [],
      });
    }
    const planned = await this.withDependencies(m, monitors, answer);
    for (const p of planned) answer[p.outcome].push(p.slug);

    const statusPage = await importStatusPage(this.pages, doc.statusPage);
    answer.status_page = { changed: statusPage.fields.length > 0, errors: statusPage.errors };
    const maintenance = await this.planMaintenance(doc.maintenance, seen, m);
    answer.maintenance = maintenance.answer;
    const subscribers = await this.subscribers.planImport(doc.subscribers);
    if (Array.isArray(doc.subscribers) ? doc.subscribers.length > 0 : doc.subscribers !== undefined)
      answer.subscribers = { added: subscribers.added.length, errors: subscribers.errors };
    return { answer, monitors: planned, statusPage, maintenance, subscribers };
  }

  /** The maintenance section: its slugs name monitors stored or in the document (maintenance-section.ts). */
  private async planMaintenance(
    raw: unknown,
    inDoc: ReadonlySet<string>,
    m: EntityManager,
  ): Promise<MaintenanceImport> {
    const stored = await this.repo.findBySlugs(this.windowSlugs(raw), m);
    const windowIds = (await allWindows(this.db)).flatMap((w) => w.monitors ?? []);
    const storedSlugOf = new Map((await this.repo.listedByIds([...new Set(windowIds)])).map((r) => [r.id, r.slug]));
    return planMaintenanceImport(this.db, raw, (slug) => inDoc.has(slug) || stored.has(slug), storedSlugOf);
  }

  /**
   * Every monitor's depends_on checked together, by slug (docs/dependencies.md): a failing one
   * becomes an error; the others get their parents and, from them, their outcome.
   */
  private async withDependencies(m: EntityManager, plans: MonitorPlan[], answer: ImportAnswer): Promise<MonitorPlan[]> {
    const deps = await this.dependsOn.planIn(
      m,
      plans.map((p) => ({ key: p.index, slug: p.slug, id: p.existing?.monitor.id ?? null, refs: p.refs })),
    );
    const out: MonitorPlan[] = [];
    for (const p of plans) {
      const fields = deps.errors.get(p.index);
      if (fields) {
        answer.errors.push({ slug: p.slug, index: p.index, fields });
        continue;
      }
      const targets = deps.targets.get(p.index) ?? [];
      const config = { ...p.config, depends_on: targets.flatMap((t) => ('id' in t ? [t.id] : [])) };
      // A parent new in this import has no id yet: the monitor changes whatever it had.
      const same =
        p.existing !== null &&
        targets.every((t) => 'id' in t) &&
        canonicalJson(p.existing.monitor.config) === canonicalJson(config) &&
        p.setToken === null;
      out.push({ ...p, config, targets, outcome: !p.existing ? 'created' : same ? 'unchanged' : 'updated' });
    }
    answer.errors.sort((a, b) => a.index - b.index);
    return out;
  }

  private async writeMonitors(
    m: EntityManager,
    plans: MonitorPlan[],
    caller: Caller | null,
  ): Promise<{ changes: BusEvents['monitor.changed'][]; tokens: number[] }> {
    const changes: BusEvents['monitor.changed'][] = [];
    const tokens: number[] = [];
    const idOf = new Map<string, number>();
    for (const p of writeOrder(plans, (q) => q.targets)) {
      p.config.depends_on = p.targets.map((t) => ('id' in t ? t.id : idOf.get(t.newSlug)!));
      if (p.outcome === 'unchanged') continue;
      if (!p.existing) {
        // Imported heartbeats keep the ping token of the export (when it carried one); otherwise
        // their URL comes from POST /monitors/{id}/heartbeat-token, as for POST /monitors/bulk.
        const { id } = await this.monitors.insertIn(m, p.config, caller, false);
        idOf.set(p.slug, id);
        if (p.setToken) await this.repo.setHeartbeatToken(m, id, p.setToken);
        changes.push({ id, created: true, targetChanged: true, config: p.config, spread: true });
        continue;
      }
      const id = p.existing.monitor.id;
      const r = await this.monitors.updateIn(m, p.existing.monitor, p.config, caller);
      if (r.changed)
        changes.push({
          id,
          created: false,
          targetChanged: r.targetChanged,
          config: p.config,
          endedIncident: r.endedIncident,
          spread: true,
        });
      if (p.setToken) {
        await this.repo.setHeartbeatToken(m, id, p.setToken);
        tokens.push(id);
      }
    }
    return { changes, tokens };
  }

  private async storedBySlugs(slugs: string[], m: EntityManager): Promise<Map<string, Stored>> {
    const rows = await this.repo.rowsBySlugs(slugs, m);
    return new Map(rows.map((r) => [r.slug, { monitor: this.repo.toStored(r), tokenHash: r.heartbeat_token_hash }]));
  }

  /** hash → slug of the stored monitor holding it, for the hashes a document gives. */
  private tokenHolders(hashes: string[], m: EntityManager): Promise<Map<string, string>> {
    return this.repo.slugsByTokenHash(hashes, m);
  }
}

/** Parses each item once per stored version of its monitor: the plan inside the transaction re-checks only what changed. */
function cachedParser(defaults: Readonly<MonitorDefaults>): Parser {
  const cache = new Map<number, { previous: string; result: ParseResult }>();
  return (index, body, previous) => {
    const key = previous === null ? '' : canonicalJson(previous);
    const hit = cache.get(index);
    if (hit && hit.previous === key) return hit.result;
    const result = parseMonitorBody(body, defaults, previous);
    cache.set(index, { previous: key, result });
    return result;
  };
}

/** What to do with a heartbeat's ping token: a hash given replaces it; ******** keeps the stored one; nothing given leaves it. */
function tokenFor(
  item: MonitorItem,
  previous: Stored | null,
): { ok: true; set: string | null } | { ok: false; message: string } {
  if (item.token === null) return { ok: true, set: null };
  if (item.token === 'keep')
    return previous?.tokenHash ? { ok: true, set: null } : { ok: false, message: NOTHING_STORED };
  return { ok: true, set: item.token === previous?.tokenHash ? null : item.token };
}

function changedAnything(a: ImportAnswer): boolean {
  return (
    a.created.length +
      a.updated.length +
      a.channels.created.length +
      a.channels.updated.length +
      a.maintenance.created.length +
      a.maintenance.updated.length >
      0 ||
    a.status_page.changed ||
    (a.subscribers?.added ?? 0) > 0
  );
}

function isNamed(v: unknown): v is { name: string } {
  return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';
}

function summary(a: ImportAnswer): string {
  const part = (what: string, s: { created: string[]; updated: string[] }) =>
    `${what} ${s.created.length} created, ${s.updated.length} updated`;
  const windows = a.maintenance.created.length + a.maintenance.updated.length;
  return `${part('monitors', a)}; ${part('channels', a.channels)}${windows ? `; ${part('maintenance windows', a.maintenance)}` : ''}`;
}
