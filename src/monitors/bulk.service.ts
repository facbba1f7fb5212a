/**
 * POST /monitors/bulk: create or replace many monitors, matched by slug (given, or derived from
 * the name without a numeric suffix, so the same file applied twice matches the same monitors).
 * Decisions (docs/monitors.md): valid items are applied even when others have errors, all in
 * one transaction; at most 1,000 items; `dry_run` runs every step but the write and answers
 * exactly what a real run would do. Heartbeat monitors created here get their ping URL from
 * POST /monitors/{id}/heartbeat-token.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Caller } from '../common/access/caller';
import { ApiError, FieldError } from '../common/http/api-error';
import { requireObjectBody } from '../common/validation/validation';
import { Database } from '../db/database';
import { BusEvents, EventBus } from '../events/event-bus';
import { SettingsService } from '../settings/settings.service';
import type { MonitorDefaults } from '../settings/settings-defaults';
import { canonicalJson } from '../common/canonical';
import { MonitorConfig } from '../probes/monitor-config';
import { isPlainObject, parseMonitorBody, ParseResult } from './monitor-input';
import { MonitorsRepository, StoredMonitor } from '../catalog/monitors.repository';
import { MonitorsService } from './monitors.service';
import { slugify } from './slug';
import { DependsOnService } from './depends-on/depends-on.service';
import { DependencyRef, DependencyTarget, writeOrder } from './depends-on/depends-on-plan';

export const BULK_MAX_ITEMS = 1000;

export interface BulkAnswer {
  created: string[];
  updated: string[];
  unchanged: string[];
  errors: { slug: string | null; index: number; fields: FieldError[] }[];
}

type Plan = {
  index: number;
  slug: string;
  config: MonitorConfig;
  existing: StoredMonitor | null;
  refs: DependencyRef[];
  /** Its parents, once checked; a new parent's id is known once it is inserted (writeOrder puts it first). */
  targets: DependencyTarget[];
};
type Planned = { plans: Plan[]; errors: BulkAnswer['errors'] };
type ItemParser = (index: number, item: unknown, previous: MonitorConfig | null) => ParseResult;

@Injectable()
export class BulkService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly monitors: MonitorsService,
    private readonly settings: SettingsService,
    private readonly bus: EventBus,
    private readonly dependsOn: DependsOnService,
  ) {}

  /**
   * 1. Check every item against the monitors stored under its slug, outside the transaction
   *    (checking is the slow part; it must not hold up other writers).
   * 2. In the transaction, read those monitors again. An item whose stored monitor appeared,
   *    disappeared or changed meanwhile (another request got in between) is checked again; the
   *    others keep their result. created / updated / unchanged are decided on this fresh read, so
   *    two bulk requests for the same slug never both report `created`.
   */
  async apply(body: unknown, caller: Caller | null): Promise<BulkAnswer> {
    const { items, dryRun } = readEnvelope(body);
    const defaults = (await this.settings.get()).defaults;
    const slugs = items.map(slugOf);
    const wanted = [...new Set(slugs.filter((s): s is string => s !== null))];
    const parse = cachedParser(defaults, slugs, (r) => this.monitors.withKnownChannels(r));

    const first = planItems(items, slugs, await this.repo.findBySlugs(wanted), parse);
    if (dryRun || first.plans.length === 0)
      return answerFor(first.plans.length ? await this.withDependencies(this.db.manager, first) : first);

    const { answer, changes } = await this.db.tx(async (m) => {
      const planned = await this.withDependencies(
        m,
        planItems(items, slugs, await this.repo.findBySlugs(wanted, m), parse),
      );
      const out: BusEvents['monitor.changed'][] = [];
      const idOf = new Map<string, number>();
      for (const p of writeOrder(planned.plans, (q) => q.targets)) {
        p.config.depends_on = p.targets.map((t) => ('id' in t ? t.id : idOf.get(t.newSlug)!));
        if (!p.existing) {
          const { id } = await this.monitors.insertIn(m, p.config, caller, false);
          idOf.set(p.slug, id);
          out.push({ id, created: true, targetChanged: true, config: p.config, spread: true });
        } else {
          const r = await this.monitors.updateIn(m, p.existing, p.config, caller);
          if (r.changed)
            out.push({
              id: p.existing.id,
              created: false,
              targetChanged: r.targetChanged,
              config: p.config,
              endedIncident: r.endedIncident,
              spread: true,
            });
        }
      }
      return { answer: answerFor(planned), changes: out };
    });
    for (const c of changes) this.bus.emit('monitor.changed', c);
    return answer;
  }

  /** Checks every plan's depends_on together (items may name each other by slug); a failing plan becomes an error. */
  private async withDependencies(m: EntityManager, planned: Planned): Promise<Planned> {
    const deps = await this.dependsOn.planIn(
      m,
      planned.plans.map((p) => ({ key: p.index, slug: p.slug, id: p.existing?.id ?? null, refs: p.refs })),
    );
    const errors = [...planned.errors];
    const plans: Plan[] = [];
    for (const p of planned.plans) {
      const fields = deps.errors.get(p.index);
      if (fields) {
        errors.push({ slug: p.slug, index: p.index, fields });
        continue;
      }
      const targets = deps.targets.get(p.index) ?? [];
      // A new parent's id is not known yet: the plan then counts as a change (answerFor).
      const config = { ...p.config, depends_on: targets.flatMap((t) => ('id' in t ? [t.id] : [])) };
      plans.push({ ...p, config, targets });
    }
    errors.sort((a, b) => a.index - b.index);
    return { plans, errors };
  }
}

/** Parses each item once per stored version of its monitor: a second pass re-checks only what changed. */
function cachedParser(
  defaults: MonitorDefaults,
  slugs: (string | null)[],
  check: (r: ParseResult) => ParseResult,
): ItemParser {
  const cache = new Map<number, { previous: string; result: ParseResult }>();
  return (index, item, previous) => {
    const key = previous === null ? '' : canonicalJson(previous);
    const hit = cache.get(index);
    if (hit && hit.previous === key) return hit.result;
    const result = check(
      parseMonitorBody(isPlainObject(item) ? { ...item, slug: slugs[index] ?? undefined } : item, defaults, previous),
    );
    cache.set(index, { previous: key, result });
    return result;
  };
}

function planItems(
  items: unknown[],
  slugs: (string | null)[],
  stored: Map<string, StoredMonitor>,
  parse: ItemParser,
): Planned {
  const errors: BulkAnswer['errors'] = [];
  const plans: Plan[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const slug = slugs[index];
    if (slug !== null && seen.has(slug)) {
      errors.push({ slug, index, fields: [{ field: 'slug', message: 'appears more than once in this request' }] });
      return;
    }
    if (slug !== null) seen.add(slug);
    const existing = slug === null ? null : (stored.get(slug) ?? null);
    const parsed = parse(index, item, existing?.config ?? null);
    if (!parsed.ok || slug === null) {
      const fields = parsed.ok
        ? [{ field: 'slug', message: 'give a slug or a name to derive it from' }]
        : parsed.errors;
      errors.push({ slug, index, fields });
      return;
    }
    plans.push({ index, slug, config: parsed.config, existing, refs: parsed.dependsOn, targets: [] });
  });
  return { plans, errors };
}

function answerFor(planned: Planned): BulkAnswer {
  const answer: BulkAnswer = { created: [], updated: [], unchanged: [], errors: planned.errors };
  for (const p of planned.plans) {
    if (!p.existing) answer.created.push(p.slug);
    else if (canonicalJson(p.existing.config) === canonicalJson(p.config) && p.targets.every((t) => 'id' in t))
      answer.unchanged.push(p.slug);
    else answer.updated.push(p.slug);
  }
  return answer;
}

function readEnvelope(body: unknown): { items: unknown[]; dryRun: boolean } {
  requireObjectBody(body);
  const errors: FieldError[] = [];
  for (const k of Object.keys(body))
    if (k !== 'monitors' && k !== 'dry_run') errors.push({ field: k, message: 'unknown field' });
  if (!Array.isArray(body.monitors)) errors.push({ field: 'monitors', message: 'required: an array of monitors' });
  else if (body.monitors.length > BULK_MAX_ITEMS)
    errors.push({ field: 'monitors', message: `at most ${BULK_MAX_ITEMS} monitors per request` });
  if (body.dry_run !== undefined && typeof body.dry_run !== 'boolean')
    errors.push({ field: 'dry_run', message: 'must be a boolean' });
  if (errors.length) throw ApiError.invalid(errors);
  return { items: body.monitors as unknown[], dryRun: body.dry_run === true };
}

/** The slug an item is matched by: its own, or the one its name derives to (no -2 suffix). */
function slugOf(item: unknown): string | null {
  if (!isPlainObject(item)) return null;
  if (typeof item.slug === 'string') return item.slug;
  if (typeof item.name === 'string' && item.name.trim() !== '')
    return slugify(item.name, typeof item.kind === 'string' ? item.kind : 'monitor');
  return null;
}
