/**
 * PATCH /settings: which keys a body may carry, the range of each value, and what the patch
 * changes. Pure: the caller supplies the current settings and the read-only values shown beside
 * them (docs/settings.md lists the same table).
 *
 * The body has the shape of the GET answer, and every key is optional. A GET answer may be edited
 * and sent back whole: read-only keys are accepted when they still hold the value shown (and
 * `email.sent_today`, a counter that moves by itself, is ignored); a different value is a 422
 * that says where the value comes from. Unknown keys are a 422 naming the key.
 */
import type { FieldError } from '../common/http/api-error';
import type { Settings, StoredSettings } from './settings-defaults';

/** An integer range; `step` when values must be a multiple of it. */
export interface IntRange {
  min: number;
  max: number;
  step?: number;
}

/** Every writable number, by its dotted path in the settings object. */
export const SETTING_RANGES = {
  'defaults.interval_s': { min: 10, max: 86_400 },
  'defaults.timeout_ms': { min: 500, max: 60_000 },
  'defaults.confirm_after': { min: 1, max: 10 },
  'defaults.retry_interval_s': { min: 5, max: 86_400 },
  'defaults.recover_after': { min: 1, max: 10 },
  'defaults.slow_after': { min: 1, max: 20 },
  // UTC-12:00 to UTC+14:00; every zone in use is a whole quarter hour from UTC.
  tz_offset_min: { min: -720, max: 840, step: 15 },
  'retention.checks_days': { min: 1, max: 400 },
  // The 30d series reads 30 days of hourly rollups (and the current one).
  'retention.hourly_days': { min: 31, max: 400 },
  'retention.events_days': { min: 7, max: 3650 },
  'email.daily_cap': { min: 1, max: 100_000 },
  'watchdog.interval_s': { min: 30, max: 3600 },
} as const satisfies Record<string, IntRange>;

export type NumericSetting = keyof typeof SETTING_RANGES;

/** Values shown in the settings answer that come from elsewhere (the environment, the owner account, the mail path). */
export interface ReadOnlyValues {
  owner_email: string | null;
  public_url: string;
  email: { configured: boolean; providers: string[]; from: string; sent_today: number };
}

const READ_ONLY_SOURCE: Record<string, string> = {
  owner_email: 'the owner account (it is how the owner signs in, so it is not a setting)',
  public_url: 'the FARSIGHT_PUBLIC_URL environment variable',
  'email.configured': 'FARSIGHT_SMTP and FARSIGHT_SMTP_FALLBACK',
  'email.providers': 'FARSIGHT_SMTP and FARSIGHT_SMTP_FALLBACK',
  'email.from': 'the FARSIGHT_MAIL_FROM environment variable',
};

/** One changed value, for the answer and the timeline line. */
export interface SettingChange {
  field: string;
  /** A secret (the watchdog's URL) is never written out: it changes from and to `********`, or null. */
  from: number | boolean | string | null;
  to: number | boolean | string | null;
}

export type PatchPlan =
  { ok: true; next: StoredSettings; changes: SettingChange[] } | { ok: false; errors: FieldError[] };

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

const SECTIONS = {
  defaults: ['interval_s', 'timeout_ms', 'confirm_after', 'retry_interval_s', 'recover_after', 'slow_after'],
  retention: ['checks_days', 'hourly_days', 'events_days'],
} as const;

/** Checks a PATCH body against the current settings; answers the settings it would leave and what changed. */
export function planSettingsPatch(body: unknown, current: Settings, shown: ReadOnlyValues): PatchPlan {
  if (!isPlain(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const next = structuredClone(current) as StoredSettings;
  const errors: FieldError[] = [];
  const num = (field: NumericSetting, value: unknown): number | null => {
    const problem = rangeProblem(value, SETTING_RANGES[field]);
    if (problem) {
      errors.push({ field, message: problem });
      return null;
    }
    return value as number;
  };

  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'defaults':
      case 'retention': {
        if (!isPlain(value)) {
          errors.push({ field: key, message: `must be an object with some of ${SECTIONS[key].join(', ')}` });
          break;
        }
        const section = next[key] as unknown as Record<string, number>;
        for (const [sub, v] of Object.entries(value)) {
          if (!(SECTIONS[key] as readonly string[]).includes(sub)) {
            errors.push({
              field: `${key}.${clip(sub)}`,
              message: `unknown key; ${key} has ${SECTIONS[key].join(', ')}`,
            });
            continue;
          }
          const n = num(`${key}.${sub}` as NumericSetting, v);
          if (n !== null) section[sub] = n;
        }
        break;
      }
      case 'tz_offset_min': {
        const n = num('tz_offset_min', value);
        if (n !== null) next.tz_offset_min = n;
        break;
      }
      case 'email':
        readEmail(value, next, shown, errors, num);
        break;
      case 'allow_private_targets':
        if (typeof value !== 'boolean') errors.push({ field: key, message: 'must be true or false' });
        else next.allow_private_targets = value;
        break;
      case 'watchdog':
        readWatchdog(value, next, errors, num);
        break;
      case 'metrics_public':
        if (typeof value !== 'boolean') errors.push({ field: key, message: 'must be true or false' });
        else next.metrics_public = value;
        break;
      case 'owner_email':
      case 'public_url':
        if (value !== shown[key]) errors.push({ field: key, message: readOnly(key) });
        break;
      case 'daily_cap':
        errors.push({ field: key, message: 'unknown key; the daily email cap is email.daily_cap' });
        break;
      default:
        errors.push({
          field: clip(key),
          message:
            'unknown key; PATCH /settings takes defaults, tz_offset_min, retention, email.daily_cap, allow_private_targets, metrics_public and watchdog',
        });
    }
  }
  if (errors.length === 0) errors.push(...crossFieldErrors(next, body));
  if (errors.length) return { ok: false, errors };
  return { ok: true, next, changes: changesBetween(current, next) };
}

function readEmail(
  value: unknown,
  next: StoredSettings,
  shown: ReadOnlyValues,
  errors: FieldError[],
  num: (f: NumericSetting, v: unknown) => number | null,
): void {
  if (!isPlain(value)) {
    errors.push({ field: 'email', message: 'must be an object; only email.daily_cap can be changed' });
    return;
  }
  for (const [sub, v] of Object.entries(value)) {
    const field = `email.${clip(sub)}`;
    if (sub === 'daily_cap') {
      const n = num('email.daily_cap', v);
      if (n !== null) next.daily_cap = n;
    } else if (sub === 'sent_today') {
      // A counter that moves by itself: a GET answer sent back a moment later must not fail on it.
    } else if (sub === 'configured' || sub === 'from') {
      if (v !== shown.email[sub]) errors.push({ field, message: readOnly(field) });
    } else if (sub === 'providers') {
      if (!Array.isArray(v) || JSON.stringify(v) !== JSON.stringify(shown.email.providers))
        errors.push({ field, message: readOnly(field) });
    } else {
      errors.push({
        field,
        message:
          'unknown key; email has configured, providers, from, daily_cap and sent_today (only daily_cap can be changed)',
      });
    }
  }
}

/** The default watchdog interval when a watchdog is set without one. */
export const WATCHDOG_DEFAULT_INTERVAL_S = 60;
const URL_MAX = 2000;

/**
 * `watchdog`: null (off), or {url, interval_s}. A watchdog already set may be changed key by key;
 * `url: "********"` keeps the stored URL (secret handling), `url: null` turns the watchdog off.
 */
function readWatchdog(
  value: unknown,
  next: StoredSettings,
  errors: FieldError[],
  num: (f: NumericSetting, v: unknown) => number | null,
): void {
  if (value === null) {
    next.watchdog = null;
    return;
  }
  if (!isPlain(value)) {
    errors.push({ field: 'watchdog', message: 'must be null (off) or an object {url, interval_s}' });
    return;
  }
  const current = next.watchdog;
  let url = current?.url ?? null;
  let interval = current?.interval_s ?? WATCHDOG_DEFAULT_INTERVAL_S;
  for (const [sub, v] of Object.entries(value)) {
    if (sub === 'url') {
      if (v === null) url = null;
      else if (v === MASKED) {
        if (!current) errors.push({ field: 'watchdog.url', message: 'no URL is stored yet: send the URL itself' });
      } else {
        const problem = watchdogUrlProblem(v);
        if (problem) errors.push({ field: 'watchdog.url', message: problem });
        else url = v as string;
      }
    } else if (sub === 'interval_s') {
      const n = num('watchdog.interval_s', v);
      if (n !== null) interval = n;
    } else {
      errors.push({ field: `watchdog.${clip(sub)}`, message: 'unknown key; watchdog has url and interval_s' });
    }
  }
  if (url === null && value.url === undefined && !current) {
    errors.push({ field: 'watchdog.url', message: 'is required to set a watchdog' });
    return;
  }
  next.watchdog = url === null ? null : { url, interval_s: interval };
}

/** What the settings answer shows for a secret. */
const MASKED = '********';

export function watchdogUrlProblem(v: unknown): string | null {
  if (typeof v !== 'string' || v.trim() === '') return 'must be an http or https URL';
  if (v.length > URL_MAX) return `must be at most ${URL_MAX} characters`;
  if (/[\u0000-\u001f\u007f\s]/.test(v)) return 'must be an http or https URL without spaces or control characters';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'must be an http or https URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http or https URL';
  return null;
}

/** New monitors take the defaults, so together they must make a valid monitor. */
function crossFieldErrors(next: StoredSettings, body: Plain): FieldError[] {
  const d = next.defaults;
  const sent = (sub: string) => isPlain(body.defaults) && body.defaults[sub] !== undefined;
  const blame = (preferred: string, other: string) => `defaults.${sent(preferred) || !sent(other) ? preferred : other}`;
  const errors: FieldError[] = [];
  if (d.timeout_ms > d.interval_s * 1000) {
    errors.push({
      field: blame('timeout_ms', 'interval_s'),
      message: `the default timeout (${d.timeout_ms} ms) must not be longer than the default interval (${d.interval_s} s)`,
    });
  }
  if (d.retry_interval_s > d.interval_s) {
    errors.push({
      field: blame('retry_interval_s', 'interval_s'),
      message: `the default retry interval (${d.retry_interval_s} s) must not be longer than the default interval (${d.interval_s} s)`,
    });
  }
  return errors;
}

/** Every value that differs, in the order of the settings object. */
export function changesBetween(before: Settings, after: Settings): SettingChange[] {
  const out: SettingChange[] = [];
  const add = (field: string, from: SettingChange['from'], to: SettingChange['to']) => {
    if (from !== to) out.push({ field, from, to });
  };
  for (const k of SECTIONS.defaults) add(`defaults.${k}`, before.defaults[k], after.defaults[k]);
  add('tz_offset_min', before.tz_offset_min, after.tz_offset_min);
  for (const k of SECTIONS.retention) add(`retention.${k}`, before.retention[k], after.retention[k]);
  add('email.daily_cap', before.daily_cap, after.daily_cap);
  add('allow_private_targets', before.allow_private_targets, after.allow_private_targets);
  add('metrics_public', before.metrics_public, after.metrics_public);
  const [a, b] = [before.watchdog, after.watchdog];
  if (a?.url !== b?.url) out.push({ field: 'watchdog.url', from: a ? MASKED : null, to: b ? MASKED : null });
  if (a?.interval_s !== b?.interval_s) {
    out.push({ field: 'watchdog.interval_s', from: a?.interval_s ?? null, to: b?.interval_s ?? null });
  }
  return out;
}

/** The timeline's words for a change: "defaults.interval_s from 60 to 30, tz_offset_min from 0 to 60". */
export function describeChanges(changes: readonly SettingChange[]): string {
  return changes.map((c) => `${c.field} from ${c.from} to ${c.to}`).join(', ');
}

export function rangeProblem(value: unknown, r: IntRange): string | null {
  const within = `an integer from ${r.min} to ${r.max}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) return `must be ${within}`;
  if (value < r.min || value > r.max) return `must be ${within}`;
  if (r.step !== undefined && value % r.step !== 0) return `must be a multiple of ${r.step} (${within})`;
  return null;
}

function readOnly(field: string): string {
  return `read-only: it comes from ${READ_ONLY_SOURCE[field]}`;
}

/** Keys from outside are echoed in errors: never a whole megabyte of one. */
function clip(key: string): string {
  return key.length > 60 ? `${key.slice(0, 60)}…` : key;
}
