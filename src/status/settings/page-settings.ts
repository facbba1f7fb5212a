/**
 * PUT /status-page (and the draft of POST /status-page/preview): every key optional, every key
 * checked before anything is saved, each problem a field error named by its dotted path
 * (`links[1].url`, `monitors[0].public_name`). Pure: the service checks that the monitors named
 * exist and who may change `hosts`.
 */
import type { FieldError } from '../../common/http/api-error';
import { nameProblem, textProblem } from '../../common/validation/text-rules';
import { normalizeHost } from './hosts';
import {
  BAR_SHAPES,
  BAR_STYLES,
  FONTS,
  LAYOUTS,
  LIMITS,
  PageLink,
  PageSettings,
  PALETTES,
  RANGES,
  THEMES,
} from './look';

/** One item of `monitors`: the monitor's id and the public settings to change (the others stay). */
export interface MonitorPublicPatch {
  id: number;
  public?: boolean;
  public_name?: string | null;
  public_group?: string | null;
  sort?: number;
}

export interface SettingsPatch {
  /** The settings with the body's keys applied. */
  next: PageSettings;
  /** Keys the body changed (compared with the current settings), for the timeline line. */
  changed: (keyof PageSettings)[];
  monitors: MonitorPublicPatch[];
}

/** Keys of a GET answer that are not settings: a body sent back from a GET may carry them; they are ignored. */
export const READ_ONLY_KEYS = ['url', 'logo', 'domains', 'server_ips'];

type Plain = Record<string, unknown>;
type Check = (value: unknown, field: string, errors: FieldError[]) => unknown;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

function bool(v: unknown, field: string, errors: FieldError[]): unknown {
  if (typeof v !== 'boolean') errors.push({ field, message: 'must be true or false' });
  return v;
}

const oneOf =
  (values: readonly string[]): Check =>
  (v, field, errors) => {
    if (typeof v !== 'string' || !values.includes(v))
      errors.push({ field, message: `must be one of ${values.join(', ')}` });
    return v;
  };

/** A display text: a string of at most `max` characters without control characters; '' only when allowed. */
const text =
  (max: number, opts: { empty?: boolean; nullAs?: string; lines?: boolean } = {}): Check =>
  (v, field, errors) => {
    if (v === null && opts.nullAs !== undefined) return opts.nullAs;
    if (typeof v !== 'string') {
      errors.push({ field, message: opts.nullAs !== undefined ? 'must be text or null' : 'must be text' });
      return v;
    }
    if ([...v].length > max) errors.push({ field, message: `must be at most ${max} characters` });
    else if (v === '' && opts.empty) return v;
    else {
      // The one text rule; line breaks and tabs are allowed in a description (shown as paragraphs).
      const problem = opts.lines
        ? (textProblem(v, { lines: true }) ?? (v.trim() === '' ? 'must not be empty or only spaces' : null))
        : nameProblem(v);
      if (problem) errors.push({ field, message: problem });
    }
    return v;
  };

function url(v: unknown, field: string, errors: FieldError[], schemes: string[]): void {
  if (typeof v !== 'string' || v.length === 0) {
    errors.push({ field, message: 'must be a URL' });
    return;
  }
  if (v.length > LIMITS.url) {
    errors.push({ field, message: `must be at most ${LIMITS.url} characters` });
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    errors.push({ field, message: `must be a full ${schemes.join(', ')} URL` });
    return;
  }
  if (!schemes.includes(parsed.protocol.slice(0, -1))) {
    errors.push({
      field,
      message: `must start with ${schemes.map((s) => (s === 'mailto' ? 'mailto:' : `${s}://`)).join(' or ')}`,
    });
  } else if (parsed.protocol !== 'mailto:' && parsed.hostname === '') {
    errors.push({ field, message: 'must name a host' });
  } else if (/[\u0000-\u001f\u007f\s]/.test(v)) {
    errors.push({ field, message: 'must not contain spaces or control characters' });
  }
}

function link(v: unknown, field: string, errors: FieldError[], schemes: string[]): PageLink | null {
  if (!isPlain(v)) {
    errors.push({ field, message: 'must be an object {label, url}' });
    return null;
  }
  const before = errors.length;
  for (const k of Object.keys(v))
    if (k !== 'label' && k !== 'url') errors.push({ field: `${field}.${k}`, message: 'unknown field' });
  if (v.label === undefined) errors.push({ field: `${field}.label`, message: 'required' });
  else text(LIMITS.link_label)(v.label, `${field}.label`, errors);
  if (v.url === undefined) errors.push({ field: `${field}.url`, message: 'required' });
  else url(v.url, `${field}.url`, errors, schemes);
  return errors.length === before ? { label: v.label as string, url: v.url as string } : null;
}

function array(v: unknown, field: string, errors: FieldError[], max: number, min = 0): unknown[] | null {
  if (!Array.isArray(v)) {
    errors.push({ field, message: 'must be an array' });
    return null;
  }
  if (v.length > max) {
    errors.push({ field, message: `must hold at most ${max} items` });
    return null;
  }
  if (v.length < min) {
    errors.push({ field, message: `must hold at least ${min} item${min === 1 ? '' : 's'}` });
    return null;
  }
  return v;
}

/** Each key: how it is checked and made canonical. Returns the value to store. */
const KEYS: { [K in keyof PageSettings]: (v: unknown, errors: FieldError[]) => unknown } = {
  enabled: (v, e) => bool(v, 'enabled', e),
  title: (v, e) => text(LIMITS.title)(v, 'title', e),
  app_name: (v, e) => text(LIMITS.app_name, { empty: true, nullAs: '' })(v, 'app_name', e),
  description: (v, e) => text(LIMITS.description, { empty: true, nullAs: '', lines: true })(v, 'description', e),
  hosts: (v, e) => {
    const list = array(v, 'hosts', e, LIMITS.hosts);
    if (!list) return v;
    const out: string[] = [];
    list.forEach((h, i) => {
      if (typeof h !== 'string') return e.push({ field: `hosts[${i}]`, message: 'must be a host name' });
      const n = normalizeHost(h);
      if (!n.ok) return e.push({ field: `hosts[${i}]`, message: n.message });
      if (out.includes(n.host)) return e.push({ field: `hosts[${i}]`, message: `repeats ${n.host}` });
      out.push(n.host);
    });
    return out;
  },
  group_order: (v, e) => {
    const list = array(v, 'group_order', e, LIMITS.group_order);
    if (!list) return v;
    list.forEach((g, i) => {
      text(LIMITS.group_name)(g, `group_order[${i}]`, e);
      if (list.indexOf(g) !== i) e.push({ field: `group_order[${i}]`, message: 'repeats a section named before' });
    });
    return list;
  },
  layout: (v, e) => oneOf(LAYOUTS)(v, 'layout', e),
  theme: (v, e) => oneOf(THEMES)(v, 'theme', e),
  accent: (v, e) => {
    if (typeof v !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(v)) {
      e.push({ field: 'accent', message: 'must be a colour of the shape #rrggbb' });
      return v;
    }
    return v.toLowerCase();
  },
  palette: (v, e) => oneOf(PALETTES)(v, 'palette', e),
  font: (v, e) => oneOf(FONTS)(v, 'font', e),
  bar_style: (v, e) => oneOf(BAR_STYLES)(v, 'bar_style', e),
  bar_shape: (v, e) => oneOf(BAR_SHAPES)(v, 'bar_shape', e),
  ranges: (v, e) => {
    const list = array(v, 'ranges', e, RANGES.length * 2, 1);
    if (!list) return v;
    list.forEach((r, i) => {
      oneOf(RANGES)(r, `ranges[${i}]`, e);
      if (list.indexOf(r) !== i) e.push({ field: `ranges[${i}]`, message: 'repeats a range' });
    });
    // Kept in one order (shortest first) so the tabs read the same whatever order was sent.
    return RANGES.filter((r) => list.includes(r));
  },
  default_range: (v, e) => oneOf(RANGES)(v, 'default_range', e),
  show_response: (v, e) => bool(v, 'show_response', e),
  show_uptime: (v, e) => bool(v, 'show_uptime', e),
  show_summary: (v, e) => bool(v, 'show_summary', e),
  show_locations: (v, e) => bool(v, 'show_locations', e),
  fold_groups: (v, e) => bool(v, 'fold_groups', e),
  auto_refresh: (v, e) => bool(v, 'auto_refresh', e),
  website: (v, e) => (v === null ? null : link(v, 'website', e, ['http', 'https'])),
  links: (v, e) => {
    const list = array(v, 'links', e, LIMITS.links);
    if (!list) return v;
    return list.map((l, i) => link(l, `links[${i}]`, e, ['http', 'https', 'mailto']));
  },
  subscribers: (v, e) => bool(v, 'subscribers', e),
};

const MONITOR_KEYS = ['id', 'public', 'public_name', 'public_group', 'sort'];

function monitorItems(v: unknown, errors: FieldError[]): MonitorPublicPatch[] {
  const list = array(v, 'monitors', errors, LIMITS.monitors);
  if (!list) return [];
  const seen = new Set<number>();
  return list.flatMap((item, i): MonitorPublicPatch[] => {
    const f = `monitors[${i}]`;
    if (!isPlain(item)) {
      errors.push({ field: f, message: 'must be an object {id, public, public_name, public_group, sort}' });
      return [];
    }
    const before = errors.length;
    for (const k of Object.keys(item))
      if (!MONITOR_KEYS.includes(k)) errors.push({ field: `${f}.${k}`, message: 'unknown field' });
    const id = item.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
      errors.push({ field: `${f}.id`, message: 'must be a monitor id' });
    else if (seen.has(id)) errors.push({ field: `${f}.id`, message: `names monitor ${id} a second time` });
    else seen.add(id);
    const out: MonitorPublicPatch = { id: id as number };
    if (item.public !== undefined) out.public = bool(item.public, `${f}.public`, errors) as boolean;
    if (item.public_name !== undefined) {
      out.public_name =
        item.public_name === null
          ? null
          : (text(LIMITS.public_name)(item.public_name, `${f}.public_name`, errors) as string);
    }
    if (item.public_group !== undefined) {
      out.public_group = item.public_group as string | null;
      if (
        item.public_group !== null &&
        (typeof item.public_group !== 'string' || [...item.public_group].length > LIMITS.public_group)
      ) {
        errors.push({
          field: `${f}.public_group`,
          message: `must be text of at most ${LIMITS.public_group} characters, or null`,
        });
      } else if (item.public_group !== null) {
        // As PUT /monitors takes it (MonitorDto): may be empty, never a control or bidirectional character.
        const problem = textProblem(item.public_group);
        if (problem) errors.push({ field: `${f}.public_group`, message: problem });
      }
    }
    if (item.sort !== undefined) {
      out.sort = item.sort as number;
      if (typeof item.sort !== 'number' || !Number.isInteger(item.sort) || Math.abs(item.sort) > 1_000_000_000) {
        errors.push({ field: `${f}.sort`, message: 'must be a whole number between -1000000000 and 1000000000' });
      }
    }
    return errors.length === before ? [out] : [];
  });
}

/**
 * Applies a PUT body to the current settings: either the next settings and the monitor changes,
 * or every problem found. `ignore` lists keys to drop unchecked (the preview ignores `hosts`).
 */
export function parseSettingsBody(
  body: Plain,
  current: PageSettings,
  ignore: string[] = [],
  opts: { dashboardHost?: string } = {},
): { ok: true; patch: SettingsPatch } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const next: PageSettings = structuredClone(current);
  const changed: (keyof PageSettings)[] = [];
  let monitors: MonitorPublicPatch[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (READ_ONLY_KEYS.includes(key) || ignore.includes(key)) continue;
    if (key === 'monitors') {
      monitors = monitorItems(value, errors);
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(KEYS, key)) {
      errors.push({ field: key, message: 'unknown field' });
      continue;
    }
    const k = key as keyof PageSettings;
    const before = errors.length;
    const canonical = KEYS[k](value, errors);
    if (errors.length > before) continue;
    if (k === 'hosts' && opts.dashboardHost) {
      // The dashboard's own host shows the dashboard at `/`: it cannot be the page's as well.
      const i = (canonical as string[]).indexOf(opts.dashboardHost);
      if (i >= 0) {
        errors.push({
          field: `hosts[${i}]`,
          message: `is the dashboard's own host (FARSIGHT_PUBLIC_URL); the status page is at /status there`,
        });
        continue;
      }
    }
    if (JSON.stringify(canonical) !== JSON.stringify(current[k])) changed.push(k);
    (next as unknown as Plain)[k] = canonical;
  }
  if (!errors.some((e) => e.field === 'ranges' || e.field.startsWith('ranges[') || e.field === 'default_range')) {
    if (!next.ranges.includes(next.default_range)) {
      errors.push({
        field: 'default_range',
        message: `must be one of the page's ranges (${next.ranges.join(', ')})${body.default_range === undefined ? '; send default_range with ranges' : ''}`,
      });
    }
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, patch: { next, changed, monitors } };
}
