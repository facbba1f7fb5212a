/**
 * The `maintenance` section of the export document (docs/export-import.md, docs/maintenance.md):
 * the one place export and import touch maintenance windows. A window is exported without its id,
 * times and state, with its monitors named by slug (ids differ between services), sorted by title.
 * Import matches windows by title: a title stored here is updated, a new one created, and none is
 * deleted; each item is checked by the same rules as POST /maintenance, its slugs against the
 * monitors stored or in the same document. The section is optional in an import.
 */
import type { EntityManager } from 'typeorm';
import { ApiError, FieldError } from '../common/http/api-error';
import { canonicalJson } from '../common/canonical';
import type { Database } from '../db/database';
import { scheduleAnswer } from '../engine/maintenance/schedule-input';
import {
  allWindows,
  insertWindowIn,
  updateWindowIn,
  windowByIdIn,
  WindowFields,
  WindowRow,
} from '../engine/maintenance/windows.table';
import { parseWindowInput, WindowInput } from '../maintenance/window-input';

type Plain = Record<string, unknown>;

export async function maintenanceForExport(db: Database, slugOf: ReadonlyMap<number, string>): Promise<Plain[]> {
  const rows = await allWindows(db);
  return rows
    .map((w) => ({
      title: w.title,
      description: w.description,
      monitors: w.monitors === null ? null : w.monitors.flatMap((id) => slugOf.get(id) ?? []).sort(),
      schedule: scheduleAnswer(w.schedule),
      public: w.public,
      announce_h: w.announce_h,
    }))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

export interface MaintenanceAnswer {
  created: string[];
  updated: string[];
  unchanged: string[];
  errors: FieldError[];
}

interface Item {
  input: WindowInput;
  slugs: string[] | null;
}

export interface MaintenanceImport {
  answer: MaintenanceAnswer;
  /**
   * Writes the windows inside the import's transaction, after the monitors (`idOf` gives a slug's
   * id as that transaction sees it); answers the rows written, for the engine after the commit.
   */
  applyIn(m: EntityManager, idOf: (slug: string) => number | undefined, now: number): Promise<WindowRow[]>;
}

/**
 * Checks the section (`raw` undefined: no section) against the windows stored; `slugKnown` says
 * whether a slug names a monitor stored or in the document.
 */
export async function planMaintenanceImport(
  db: Database,
  raw: unknown,
  slugKnown: (slug: string) => boolean,
  storedSlugOf: ReadonlyMap<number, string>,
): Promise<MaintenanceImport> {
  const answer: MaintenanceAnswer = { created: [], updated: [], unchanged: [], errors: [] };
  const none: MaintenanceImport = { answer, applyIn: async () => [] };
  if (raw === undefined) return none;
  if (!Array.isArray(raw) || raw.length > 1000) {
    answer.errors.push({ field: 'maintenance', message: 'must be an array of at most 1,000 maintenance windows' });
    return none;
  }
  const items: Item[] = [];
  const titles = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const at = `maintenance[${i}]`;
    const item = readItem(entry, at, slugKnown, answer.errors);
    if (!item) return;
    if (titles.has(item.input.title))
      answer.errors.push({ field: `${at}.title`, message: 'another window of this import has the same title' });
    titles.add(item.input.title);
    items.push(item);
  });
  if (answer.errors.length) return none;
  const stored = new Map<string, WindowRow>();
  for (const w of await allWindows(db)) if (!stored.has(w.title)) stored.set(w.title, w);
  for (const { input, slugs } of items) {
    const w = stored.get(input.title);
    if (!w) answer.created.push(input.title);
    else if (sameAsStored(w, input, slugs, storedSlugOf)) answer.unchanged.push(input.title);
    else answer.updated.push(input.title);
  }
  return {
    answer,
    applyIn: async (m, idOf, now) => {
      const written: WindowRow[] = [];
      for (const { input, slugs } of items) {
        if (answer.unchanged.includes(input.title)) continue;
        const monitors =
          slugs === null ? null : slugs.map((s) => idOf(s)).filter((id): id is number => id !== undefined);
        const existing = stored.get(input.title);
        const fields: WindowFields = {
          ...input,
          monitors,
          manual_start: existing?.manual_start ?? null,
          manual_end: existing?.manual_end ?? null,
          stopped_until: existing?.stopped_until ?? null,
          ended_at: existing?.ended_at ?? null,
          updated_at: now,
        };
        if (existing) await updateWindowIn(m, existing.id, fields);
        const id = existing ? existing.id : await insertWindowIn(m, fields, now);
        const row = await windowByIdIn(m, id);
        if (row) written.push(row);
      }
      return written;
    },
  };
}

function readItem(entry: unknown, at: string, slugKnown: (slug: string) => boolean, errors: FieldError[]): Item | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    errors.push({ field: at, message: 'must be a maintenance window object' });
    return null;
  }
  const body = { ...(entry as Plain) };
  let slugs: string[] | null = null;
  const monitors = body.monitors;
  if (monitors !== undefined && monitors !== null) {
    if (!Array.isArray(monitors) || !monitors.every((s) => typeof s === 'string')) {
      errors.push({ field: `${at}.monitors`, message: 'must be null (every monitor) or a list of monitor slugs' });
      return null;
    }
    slugs = [...new Set(monitors as string[])];
    (monitors as string[]).forEach((s, j) => {
      if (!slugKnown(s))
        errors.push({
          field: `${at}.monitors[${j}]`,
          message: `no monitor has the slug "${s.slice(0, 100)}" here or in this import`,
        });
    });
  }
  delete body.monitors;
  try {
    return { input: parseWindowInput(body, false), slugs };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    errors.push(...(err.fields ?? []).map((f) => ({ field: `${at}.${f.field}`, message: f.message })));
    return null;
  }
}

function sameAsStored(
  w: WindowRow,
  input: WindowInput,
  slugs: string[] | null,
  storedSlugOf: ReadonlyMap<number, string>,
): boolean {
  // A slug of a monitor this import creates is in no stored window: such a window changes.
  const storedSlugs = w.monitors === null ? null : w.monitors.flatMap((id) => storedSlugOf.get(id) ?? []).sort();
  const storedShape = { ...pick(w), monitors: storedSlugs };
  const docShape = { ...pick(input), monitors: slugs === null ? null : [...slugs].sort() };
  return canonicalJson(storedShape) === canonicalJson(docShape);
}

function pick(w: Omit<WindowInput, 'monitors'>): Plain {
  return {
    title: w.title,
    description: w.description,
    schedule: w.schedule,
    public: w.public,
    announce_h: w.announce_h,
  };
}
