/**
 * POST /import, the pure part (docs/export-import.md): the document's envelope, each channel
 * item checked against the channel stored under its name, each monitor item made ready for the
 * monitor parser (its channel names resolved, its heartbeat token hash taken aside), and the
 * answer's shape. The service (import.service.ts) reads what is stored and writes.
 */
import { ApiError, FieldError } from '../common/http/api-error';
import { isMask } from '../common/secrets/secrets';
import { keepSecrets } from '../common/secrets/secret-fields';
import { parseIso } from '../common/time';
import { Channel, ChannelInput, parseChannelCreate, sameReceiver } from '../channels/channel-body';
import { senderOf } from '../channels/senders/registry';
import type { BulkAnswer } from '../monitors/bulk.service';
import { canonicalJson } from '../common/canonical';
import { slugify } from '../monitors/slug';
import { parseDependencyRefs } from '../monitors/depends-on/depends-on-plan';
import { EXPORT_FORMAT, TOKEN_FIELD } from './export-document';
import type { MaintenanceAnswer } from './maintenance-section';

/**
 * At most this many monitors per import. An import checks and writes everything in one
 * transaction, which holds up the check writer while it runs (about 1.5 s for 5,000 monitors on
 * the reference machine, docs/export-import.md); a larger setup is imported in parts, since an
 * import only creates and changes, never deletes.
 */
export const IMPORT_MAX_MONITORS = 5000;
export const IMPORT_MAX_CHANNELS = 500;
/** As for a monitor body (MonitorDto). */
const MAX_CHANNELS_PER_MONITOR = 100;

/** The sections an import document has; the Kuma importer asks this list (system/kuma/kuma-plan.ts). */
export const IMPORT_SECTIONS: readonly string[] = ['monitors', 'channels', 'status_page', 'maintenance', 'subscribers'];
const SECTIONS = IMPORT_SECTIONS;
const ENVELOPE_KEYS = ['service_export', 'exported_at', ...SECTIONS, 'dry_run'];

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ImportEnvelope {
  monitors: unknown[];
  channels: unknown[];
  statusPage: Plain;
  /** The maintenance section as sent (undefined: none; checked by maintenance-section.ts). */
  maintenance: unknown;
  /** The subscribers section as sent (undefined: none; checked by subscribers/subscribers.service.ts). */
  subscribers: unknown;
  dryRun: boolean;
}

/** Checks everything but the items; a document that fails here is a 422 and nothing is looked at further. */
export function readImportEnvelope(body: unknown): ImportEnvelope {
  if (!isPlain(body))
    throw ApiError.invalid([{ field: 'body', message: 'must be a JSON object: an export document plus dry_run' }]);
  const errors: FieldError[] = [];
  for (const k of Object.keys(body)) {
    if (!ENVELOPE_KEYS.includes(k))
      errors.push({ field: k.slice(0, 60), message: `unknown key; an import has ${ENVELOPE_KEYS.join(', ')}` });
  }
  if (body.service_export === undefined)
    errors.push({ field: 'service_export', message: `required: ${EXPORT_FORMAT}, the format of an export document` });
  else if (body.service_export !== EXPORT_FORMAT) {
    errors.push({
      field: 'service_export',
      message: `must be ${EXPORT_FORMAT}: this service reads export format ${EXPORT_FORMAT} only`,
    });
  }
  if (body.exported_at !== undefined && parseIso(body.exported_at) === null) {
    errors.push({ field: 'exported_at', message: 'must be an RFC 3339 time, or left out (it is not used)' });
  }
  const list = (key: 'monitors' | 'channels', max: number, what: string) => {
    const v = body[key];
    if (v === undefined) errors.push({ field: key, message: `required: an array of ${what} ([] for none)` });
    else if (!Array.isArray(v)) errors.push({ field: key, message: `must be an array of ${what}` });
    else if (v.length > max) {
      errors.push({
        field: key,
        message: `at most ${max.toLocaleString('en-US')} ${what} per import (this document has ${v.length.toLocaleString('en-US')}); import it in parts: an import only creates and changes, never deletes`,
      });
    }
  };
  list('monitors', IMPORT_MAX_MONITORS, 'monitors');
  list('channels', IMPORT_MAX_CHANNELS, 'channels');
  if (body.status_page === undefined)
    errors.push({ field: 'status_page', message: 'required: an object ({} for nothing)' });
  else if (!isPlain(body.status_page)) errors.push({ field: 'status_page', message: 'must be an object' });
  if (body.dry_run !== undefined && typeof body.dry_run !== 'boolean')
    errors.push({ field: 'dry_run', message: 'must be true or false' });
  if (errors.length) throw ApiError.invalid(errors);
  return {
    monitors: body.monitors as unknown[],
    channels: body.channels as unknown[],
    statusPage: body.status_page as Plain,
    maintenance: body.maintenance,
    subscribers: body.subscribers,
    // Unless told otherwise, an import only says what it would do.
    dryRun: body.dry_run !== false,
  };
}

// ---- channels -----------------------------------------------------------------------------

export type ChannelOutcome = 'created' | 'updated' | 'unchanged';

export interface ChannelPlan {
  index: number;
  name: string;
  input: ChannelInput;
  existing: Channel | null;
  outcome: ChannelOutcome;
}

export interface ChannelError {
  name: string | null;
  index: number;
  fields: FieldError[];
}

/**
 * Each channel item against the channels stored now (matched by name). `********` keeps a stored
 * secret only while the channel's URL stays the same (sameReceiver: its URL or server, as PATCH /channels does);
 * for a channel that is not stored there is nothing to keep, and that is an error.
 */
export function planChannels(
  items: readonly unknown[],
  stored: readonly Channel[],
): { plans: ChannelPlan[]; errors: ChannelError[] } {
  const byName = new Map<string, Channel[]>();
  for (const c of stored) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const plans: ChannelPlan[] = [];
  const errors: ChannelError[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const name = isPlain(item) && typeof item.name === 'string' ? item.name : null;
    const fail = (fields: FieldError[]) => errors.push({ name, index, fields });
    if (!isPlain(item))
      return fail([{ field: '', message: 'a channel must be a JSON object {name, kind, enabled, events, config}' }]);
    if (name !== null && seen.has(name))
      return fail([{ field: 'name', message: 'appears more than once in this import; channels are matched by name' }]);
    if (name !== null) seen.add(name);
    let input: ChannelInput;
    try {
      input = parseChannelCreate(item, senderOf);
    } catch (err) {
      if (err instanceof ApiError && err.fields) return fail(err.fields);
      throw err;
    }
    const matches = byName.get(input.name) ?? [];
    if (matches.length > 1) {
      return fail([
        {
          field: 'name',
          message: `${matches.length} channels here are named "${input.name}"; rename all but one so the import can tell which one it means`,
        },
      ]);
    }
    const existing = matches[0] ?? null;
    if (existing && existing.kind !== input.kind) {
      return fail([
        {
          field: 'kind',
          message: `the channel "${input.name}" here is a ${existing.kind} channel, and a channel keeps its kind; rename one of the two`,
        },
      ]);
    }
    const secretErrors = keepSecrets(
      input.config,
      existing?.config ?? null,
      senderOf(input.kind).secrets,
      sameReceiver(senderOf(input.kind)),
      'config',
    );
    if (secretErrors.length) return fail(secretErrors);
    const outcome: ChannelOutcome = !existing ? 'created' : sameChannel(existing, input) ? 'unchanged' : 'updated';
    plans.push({ index, name: input.name, input, existing, outcome });
  });
  return { plans, errors };
}

function sameChannel(c: Channel, input: ChannelInput): boolean {
  return (
    canonicalJson({ enabled: c.enabled, events: c.events, config: c.config }) ===
    canonicalJson({ enabled: input.enabled, events: input.events, config: input.config })
  );
}

// ---- monitors -----------------------------------------------------------------------------

export interface MonitorItem {
  /** The item to hand to the monitor parser: without `channels` and the token hash, with its slug. */
  body: Plain;
  slug: string;
  /** Channel names in the item's order, or null (every enabled channel). */
  channelNames: string[] | null;
  /** A token hash to set, `keep` (******** or absent on a stored monitor), or null (none given). */
  token: string | 'keep' | null;
}

/**
 * Takes apart what the monitor parser does not know: the slug it is matched by (given, or derived
 * from the name as POST /monitors/bulk does), the channel names, the heartbeat token hash.
 * `channelProblem` says why a name names no single channel (stored here or in this import), or null.
 */
export function splitMonitorItem(
  item: unknown,
  channelProblem: (name: string) => string | null,
): { ok: true; item: MonitorItem } | { ok: false; slug: string | null; fields: FieldError[] } {
  if (!isPlain(item))
    return { ok: false, slug: null, fields: [{ field: '', message: 'a monitor must be a JSON object' }] };
  const slug =
    typeof item.slug === 'string'
      ? item.slug
      : typeof item.name === 'string' && item.name.trim() !== ''
        ? slugify(item.name, typeof item.kind === 'string' ? item.kind : 'monitor')
        : null;
  const fields: FieldError[] = [];
  if (slug === null) fields.push({ field: 'slug', message: 'give a slug or a name to derive it from' });

  let channelNames: string[] | null = null;
  const raw = item.channels;
  if (Array.isArray(raw)) {
    if (raw.length > MAX_CHANNELS_PER_MONITOR)
      fields.push({ field: 'channels', message: `at most ${MAX_CHANNELS_PER_MONITOR} channels` });
    channelNames = [];
    raw.forEach((ref, i) => {
      if (typeof ref !== 'string') {
        fields.push({
          field: `channels[${i}]`,
          message: 'name the channel: an import refers to channels by name (ids differ between machines)',
        });
      } else if (channelNames!.includes(ref)) {
        fields.push({ field: `channels[${i}]`, message: 'must not repeat a channel' });
      } else {
        const problem = channelProblem(ref);
        if (problem) fields.push({ field: `channels[${i}]`, message: problem });
        else channelNames!.push(ref);
      }
    });
  } else if (raw !== undefined && raw !== null) {
    fields.push({
      field: 'channels',
      message: 'must be null (every enabled channel) or an array of channel names ([] for nobody)',
    });
  }

  // An import names the monitors it depends on by slug (ids differ between machines).
  let dependsOn: string[] | undefined;
  if (item.depends_on !== undefined && item.depends_on !== null) {
    const refs = parseDependencyRefs(item.depends_on, 'import');
    fields.push(...refs.errors);
    dependsOn = refs.refs.flatMap((r) => ('slug' in r ? [`slug:${r.slug}`] : []));
  }

  let token: MonitorItem['token'] = null;
  const hash = item[TOKEN_FIELD];
  if (hash !== undefined && hash !== null) {
    if (item.kind !== 'heartbeat')
      fields.push({ field: TOKEN_FIELD, message: 'only a heartbeat monitor has a ping token' });
    else if (isMask(hash)) token = 'keep';
    else if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      fields.push({
        field: TOKEN_FIELD,
        message:
          'must be the SHA-256 of the ping token as 64 lower-case hex digits, as an export with ?secrets=1 gives it',
      });
    else token = hash;
  }
  if (fields.length) return { ok: false, slug, fields };
  const body: Plain = { ...item, slug };
  if (dependsOn !== undefined) body.depends_on = dependsOn;
  delete body.channels;
  delete body[TOKEN_FIELD];
  return { ok: true, item: { body, slug: slug as string, channelNames, token } };
}

/**
 * Who holds each heartbeat ping token hash: a hash belongs to one monitor (the `monitors` table
 * holds it UNIQUE, and a ping must name one monitor). Checked here, in the plan, so the dry run
 * finds what the write would otherwise hit as a constraint failure.
 *
 * A hash held by a stored monitor of another slug is refused even when the same document gives
 * that monitor a new hash: the writes run in document order, and the rule stays one sentence.
 */
export class TokenHolders {
  private readonly inDoc = new Map<string, { index: number; slug: string }>();

  /** `stored`: hash → slug of the stored monitor that holds it. */
  constructor(private readonly stored: ReadonlyMap<string, string>) {}

  /** Why item `index` (`slug`) cannot take `hash`, or null; a hash it can take is held by it from then on. */
  claim(hash: string, index: number, slug: string): string | null {
    const holder = this.stored.get(hash);
    if (holder !== undefined && holder !== slug) {
      return `the monitor "${holder.slice(0, 100)}" here already has this ping token, and a ping token belongs to one monitor: leave ${TOKEN_FIELD} out (a new monitor then gets its ping URL from POST /monitors/{id}/heartbeat-token), or give "${holder.slice(0, 100)}" a new token first`;
    }
    const earlier = this.inDoc.get(hash);
    if (earlier)
      return `item ${earlier.index} ("${earlier.slug.slice(0, 100)}") of this import has the same ping token hash, and a ping token belongs to one monitor`;
    this.inDoc.set(hash, { index, slug });
    return null;
  }
}

// ---- the answer ---------------------------------------------------------------------------

/**
 * The spec answers POST /import "like bulk": the monitors' `created`, `updated`, `unchanged` and
 * `errors` sit at the top level exactly as POST /monitors/bulk answers them (one type, so they
 * cannot drift apart); channels and the status page have their own keys.
 */
export interface ImportAnswer extends BulkAnswer {
  dry_run: boolean;
  /** True only when the import was written; false for a dry run and whenever `errors` are reported. */
  applied: boolean;
  channels: { created: string[]; updated: string[]; unchanged: string[]; errors: ChannelError[] };
  status_page: { changed: boolean; errors: FieldError[] };
  maintenance: MaintenanceAnswer;
  /** Only when the document has subscribers: confirmed addresses added, and the section's problems. */
  subscribers?: { added: number; errors: FieldError[] };
}

export function hasErrors(a: ImportAnswer): boolean {
  return (
    a.errors.length > 0 ||
    a.channels.errors.length > 0 ||
    a.status_page.errors.length > 0 ||
    a.maintenance.errors.length > 0 ||
    (a.subscribers?.errors.length ?? 0) > 0
  );
}
