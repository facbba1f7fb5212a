/**
 * The import's report (docs/import-kuma.md "The report"): one entry per Kuma item with what
 * happened to it, as JSON (`--json`, the dashboard, POST /import/kuma) and as text for the
 * terminal. Also what the import's answer means for the entries: items POST /import finds errors
 * in are taken out of the document and reported as skipped with those errors, so the rest still
 * applies in one transaction. Pure.
 */
import type { FieldError } from '../../common/http/api-error';
import type { ImportAnswer } from '../import-document';
import type { KumaEntry, KumaOutcome, KumaPlan } from './kuma-plan';

export interface KumaReport {
  source: string;
  dry_run: boolean;
  /** True when the import was written (never for a dry run). */
  applied: boolean;
  counts: Record<KumaOutcome, number>;
  items: KumaEntry[];
}

const words = (fields: FieldError[]) =>
  fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');

/**
 * Takes out of `plan.document` the items `answer` has errors for, marking their entries skipped;
 * monitors stop naming channels taken out. Returns whether anything was taken out.
 */
export function dropRefused(plan: KumaPlan, answer: ImportAnswer): boolean {
  const doc = plan.document;
  const find = (type: KumaEntry['type'], key: string | null) =>
    plan.entries.find((e) => e.type === type && e.key === key && e.outcome === 'pending');
  const refuse = (e: KumaEntry | undefined, fields: FieldError[]) => {
    if (!e) return;
    e.outcome = 'skipped';
    e.reason = `refused by this service: ${words(fields)}`;
  };
  const goneChannels = new Set<string>();
  for (const err of answer.channels.errors) {
    const item = doc.channels[err.index];
    const name = typeof item?.name === 'string' ? item.name : null;
    refuse(find('channel', name), err.fields);
    if (name) goneChannels.add(name);
  }
  const goneMonitors = new Set(answer.errors.map((e) => e.index));
  for (const err of answer.errors)
    refuse(find('monitor', (doc.monitors[err.index]?.slug as string) ?? null), err.fields);
  if (answer.status_page.errors.length) {
    refuse(
      plan.entries.find((e) => e.type === 'status_page'),
      answer.status_page.errors,
    );
    doc.status_page = {};
  }
  doc.channels = doc.channels.filter((c) => !goneChannels.has(c.name as string));
  doc.monitors = doc.monitors.filter((_, i) => !goneMonitors.has(i));
  for (const m of doc.monitors) {
    const names = m.channels as string[];
    const kept = names.filter((n) => !goneChannels.has(n));
    if (kept.length !== names.length) {
      m.channels = kept;
      const e = find('monitor', m.slug as string);
      e?.notes.push(`channels not imported, left out: ${names.filter((n) => goneChannels.has(n)).join(', ')}`);
    }
  }
  return goneChannels.size + goneMonitors.size + answer.status_page.errors.length > 0;
}

/** The report once the import has answered: every pending entry gets the outcome the answer gives it. */
export function finishReport(plan: KumaPlan, answer: ImportAnswer): KumaReport {
  const outcomeIn = (lists: OutcomeLists, key: string | null) => firstOutcome(lists, (name) => name === key);
  for (const e of plan.entries) {
    if (e.outcome !== 'pending') continue;
    const found =
      e.type === 'monitor'
        ? outcomeIn(answer, e.key)
        : e.type === 'channel'
          ? outcomeIn(answer.channels, e.key)
          : e.type === 'status_page'
            ? answer.status_page.changed
              ? 'updated'
              : 'unchanged'
            : e.key === null
              ? undefined
              : firstOutcome(answer.maintenance, windowOf(e.key));
    if (found) e.outcome = found;
    else {
      e.outcome = 'skipped';
      e.reason ??= "not in the import's answer";
    }
  }
  const counts: Record<KumaOutcome, number> = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  for (const e of plan.entries) counts[e.outcome as KumaOutcome]++;
  return { source: plan.source, dry_run: answer.dry_run, applied: answer.applied, counts, items: plan.entries };
}

type OutcomeLists = { created: string[]; updated: string[]; unchanged: string[] };

/** The first of created, updated, unchanged whose list names the item (created wins over updated...). */
function firstOutcome(lists: OutcomeLists, names: (name: string) => boolean) {
  return (['created', 'updated', 'unchanged'] as const).find((o) => lists[o].some(names));
}

/**
 * A Kuma window may become several here (one monthly window per day of the month, titled
 * "<title> (day N)": kuma-maintenance.ts): it is created if any of them is, else updated if any
 * is, else unchanged when they all are.
 */
const windowOf = (key: string) => (title: string) => title === key || title.startsWith(`${key.slice(0, 100)} (`);

const LABEL: Record<KumaEntry['type'], string> = {
  monitor: 'monitor',
  channel: 'channel',
  maintenance: 'maintenance',
  status_page: 'status page',
};

/** The report as lines for a terminal: a summary, then one line per item (plus its notes, indented). */
export function reportText(r: KumaReport): string {
  const verb = (o: KumaOutcome) => (r.dry_run && o !== 'skipped' && o !== 'unchanged' ? `would be ${o}` : o);
  const lines = [
    `${r.source}: ${r.dry_run ? 'dry run, nothing changed' : r.applied ? 'applied' : 'not applied'}`,
    `${r.counts.created} ${verb('created')}, ${r.counts.updated} ${verb('updated')}, ${r.counts.unchanged} unchanged, ${r.counts.skipped} skipped`,
    '',
  ];
  for (const e of r.items) {
    const what = `${LABEL[e.type]} "${e.name}"${e.key && e.key !== e.name ? ` (${e.key})` : ''}`;
    lines.push(`${verb(e.outcome as KumaOutcome).padEnd(16)} ${what}${e.reason ? `: ${e.reason}` : ''}`);
    for (const n of e.notes) lines.push(`${' '.repeat(17)}- ${n}`);
  }
  if (r.dry_run) lines.push('', 'Run again with --apply to write it (one transaction; the service may keep running).');
  return `${lines.join('\n')}\n`;
}
