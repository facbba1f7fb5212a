/**
 * One Kuma monitor row → one monitor item of an export document (docs/export-import.md), with what
 * was not kept as notes, or the reason it cannot be imported. Kuma's counting is translated, not
 * copied (docs/import-kuma.md "Timing"):
 *  - `maxretries` N: Kuma marks Down after the first failure and N retries → confirm_after N + 1;
 *  - `retry_interval` (seconds; 0 = the interval) → retry_interval_s;
 *  - `resend_interval` counts *checks* while Down → remind_every_min = checks × interval in minutes;
 *  - `timeout` seconds (0 = 80 % of the interval, as Kuma does) → timeout_ms.
 * Pure.
 */
import type { KumaRow } from './kuma-data';
import { kindOf } from './kuma-kinds';
import { bool, clamp, fit, num, str } from './kuma-values';

export interface MonitorContext {
  /** The Kuma group path of the monitor (`Home / NAS`), or null. */
  group: string | null;
  /** `name` or `name:value`. */
  tags: string[];
  /** Names of the channels imported for its notifications. */
  channels: string[];
  /** The docker endpoint of its `docker_host`, for docker monitors. */
  dockerEndpoint: string | null;
  /** On the first status page: its group there and its position. */
  page: { group: string | null; sort: number } | null;
}

export type MonitorMapping =
  { ok: true; kind: string; item: Record<string, unknown>; notes: string[] } | { ok: false; reason: string };

const LIMITS = { interval: [10, 2_592_000], retry: [5, 2_592_000], timeout: [500, 60_000], remind: [0, 10_080] };

export function mapMonitor(row: KumaRow, ctx: MonitorContext, tokenHash: (token: string) => string): MonitorMapping {
  const fail = (reason: string): MonitorMapping => ({ ok: false, reason });
  const notes: string[] = [];
  const rawName = str(row.name);
  if (!rawName) return fail('it has no name');
  const kind = kindOf({ ...row, docker_endpoint: ctx.dockerEndpoint });
  if (!kind.ok) return kind;
  notes.push(...kind.notes);

  const interval = num(row.interval);
  if (interval === null || interval <= 0)
    return fail(`interval ${String(row.interval).slice(0, 20)} is not a positive number of seconds`);
  const retry = num(row.retry_interval ?? 0);
  if (retry === null || retry < 0)
    return fail(`retry interval ${String(row.retry_interval).slice(0, 20)} is not a number of seconds`);
  const retries = num(row.maxretries ?? 0);
  if (retries === null || retries < 0 || !Number.isInteger(retries))
    return fail(`retries ${String(row.maxretries).slice(0, 20)} is not a whole number of 0 or more`);
  const resend = num(row.resend_interval ?? 0);
  if (resend === null || resend < 0)
    return fail(`resend interval ${String(row.resend_interval).slice(0, 20)} is not a number of checks`);
  const timeout = num(row.timeout ?? 0);
  if (timeout === null || timeout < 0)
    return fail(`timeout ${String(row.timeout).slice(0, 20)} is not a number of seconds`);

  const interval_s = clamp(
    Math.round(interval),
    LIMITS.interval[0],
    LIMITS.interval[1],
    'the interval (seconds)',
    notes,
  );
  const item: Record<string, unknown> = {
    name: fit(rawName, 100, 'the name', notes),
    kind: kind.kind,
    group: ctx.group === null ? null : fit(ctx.group, 60, 'the group name', notes),
    tags: tagsOf(ctx.tags, notes),
    description: str(row.description) ? fit(str(row.description)!, 500, 'the description', notes) : null,
    interval_s,
    confirm_after: clamp(retries + 1, 1, 10, 'confirm_after (retries + 1)', notes),
    retry_interval_s: clamp(
      Math.round(retry > 0 ? retry : interval),
      LIMITS.retry[0],
      LIMITS.retry[1],
      'the retry interval (seconds)',
      notes,
    ),
    remind_every_min: clamp(
      Math.ceil((resend * interval) / 60),
      LIMITS.remind[0],
      LIMITS.remind[1],
      'the reminder period (minutes)',
      notes,
    ),
    channels: ctx.channels,
    paused: !bool(row.active, true) || kind.pause !== undefined,
    public: ctx.page !== null,
    public_group: ctx.page?.group ? fit(ctx.page.group, 60, 'the status page group', notes) : null,
    sort: ctx.page?.sort ?? 0,
  };
  if (kind.pause) notes.push(kind.pause);
  // Kuma 2.x's extra conditions (migration 2024-08-24-0000-conditions): `[]` unless set.
  const conditions = typeof row.conditions === 'string' ? row.conditions.trim() : '[]';
  if (conditions !== '[]' && conditions !== '')
    notes.push("Kuma's extra conditions are not kept: add the rule by hand");
  // A heartbeat's timeout is not used; every other kind gets Kuma's (or Kuma's default of 80 % of the interval).
  if (kind.kind !== 'heartbeat') {
    const seconds = timeout > 0 ? timeout : interval * 0.8;
    item.timeout_ms = clamp(
      Math.round(seconds * 1000),
      LIMITS.timeout[0],
      LIMITS.timeout[1],
      'the timeout (ms)',
      notes,
    );
  }
  if (bool(row.upside_down, false) && kind.kind !== 'http')
    return fail(`upside-down mode cannot be expressed for a ${kind.kind} monitor`);
  item[kind.kind] = kind.settings;
  if (kind.kind === 'heartbeat') {
    const token = str(row.push_token);
    // Kuma's push URL keeps working: the token's hash is this service's ping token (GET /api/push/{token}).
    if (token) item.heartbeat_token_sha256 = tokenHash(token);
    else notes.push('it has no push token: get its ping URL from POST /monitors/{id}/heartbeat-token');
  }
  return { ok: true, kind: kind.kind, item, notes };
}

function tagsOf(tags: string[], notes: string[]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const tag = fit(t, 30, `the tag "${t.slice(0, 40)}"`, notes);
    if (!out.includes(tag)) out.push(tag);
  }
  if (out.length > 20) notes.push(`${out.length - 20} tags left out: a monitor has at most 20`);
  return out.slice(0, 20);
}
