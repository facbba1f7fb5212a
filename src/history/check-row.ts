/**
 * The stored form of a check result (one `checks` row) and back. Outcome and error code are small
 * integers; message, detail, the note and the maintenance window travel in `info` only when the
 * check failed, was not counted or was made while a window held its monitor, so a good check
 * costs a few bytes (and a check in maintenance about ten more: no column for a rare fact).
 */
import { CHECK_ERROR_CODES, CheckErrorCode, CheckResult, NO_PHASES, Outcome } from '../probes/check-result';

export const OUTCOME_CODES: readonly Outcome[] = ['up', 'slow', 'down', 'unknown'];
export const OUTCOME_CODE: Record<Outcome, number> = { up: 0, slow: 1, down: 2, unknown: 3 };

export interface CheckRow {
  monitor_id: number;
  at: number;
  outcome: number;
  latency: number | null;
  dns: number | null;
  conn: number | null;
  tls: number | null;
  ttfb: number | null;
  status: number | null;
  /** 1-based index into CHECK_ERROR_CODES. */
  error: number | null;
  /** JSON {w: window id, m: message, d: detail, n: note} on failed, not-counted or maintenance rows. */
  info: string | null;
}

/** A result as the engine keeps it: the probe's facts plus whether it counted (blind / path). */
export interface StoredCheck extends CheckResult {
  monitor_id: number;
  /** Why it was not counted (the service was blind, a network path problem), else null. */
  note: string | null;
  /** The maintenance window that held the monitor when the check was made, else null (or absent). */
  maintenance?: number | null;
}

const round = (v: number | null) => (v === null ? null : Math.round(v));

export function toRow(c: StoredCheck): CheckRow {
  return checkRow(c, c.monitor_id, c.note, c.maintenance ?? null);
}

/**
 * The row of a probe's result (the engine's path: no StoredCheck is made for it). `windowId`: the
 * maintenance window holding the monitor at the check (engine.maintenance.markOf), else null.
 */
export function checkRow(
  c: CheckResult,
  monitorId: number,
  note: string | null,
  windowId: number | null = null,
): CheckRow {
  return {
    monitor_id: monitorId,
    at: c.at_ms,
    outcome: OUTCOME_CODE[c.outcome],
    latency: round(c.latency_ms),
    dns: round(c.phases.dns_ms),
    conn: round(c.phases.connect_ms),
    tls: round(c.phases.tls_ms),
    ttfb: round(c.phases.ttfb_ms),
    status: c.status,
    error: c.error ? CHECK_ERROR_CODES.indexOf(c.error.code) + 1 || null : null,
    info: c.error || note !== null || windowId !== null ? infoOf(c, note, windowId) : null,
  };
}

function infoOf(c: CheckResult, note: string | null, windowId: number | null): string {
  // The window first: maintenanceOf() reads it from the start of the text, where no message or
  // detail of a target (which could contain the same characters) can ever stand.
  const info: Record<string, string | number> = {};
  if (windowId !== null) info.w = windowId;
  if (c.error) info.m = c.error.message;
  if (c.detail) info.d = c.detail;
  if (note) info.n = note;
  return JSON.stringify(info);
}

const WINDOW_PREFIX = '{"w":';

/** The maintenance window a stored check was made in, or null (read without parsing the JSON). */
export function maintenanceOf(info: string | null): number | null {
  if (info === null || !info.startsWith(WINDOW_PREFIX)) return null;
  const id = parseInt(info.slice(WINDOW_PREFIX.length), 10);
  return Number.isSafeInteger(id) ? id : null;
}

export function fromRow(r: CheckRow): StoredCheck {
  const info = r.info ? (JSON.parse(r.info) as { m?: string; d?: string; n?: string }) : {};
  const code = r.error ? (CHECK_ERROR_CODES[r.error - 1] as CheckErrorCode | undefined) : undefined;
  return {
    monitor_id: r.monitor_id,
    at_ms: r.at,
    outcome: OUTCOME_CODES[r.outcome] ?? 'unknown',
    latency_ms: r.latency,
    phases:
      r.dns === null && r.conn === null && r.tls === null && r.ttfb === null
        ? { ...NO_PHASES }
        : { dns_ms: r.dns, connect_ms: r.conn, tls_ms: r.tls, ttfb_ms: r.ttfb },
    status: r.status,
    error: code ? { code, message: info.m ?? '' } : null,
    cert: null,
    detail: info.d ?? null,
    note: info.n ?? null,
    maintenance: maintenanceOf(r.info),
  };
}

export const CHECK_COLUMNS = [
  'monitor_id',
  'at',
  'outcome',
  'latency',
  'dns',
  'conn',
  'tls',
  'ttfb',
  'status',
  'error',
  'info',
] as const;
