/** GET /events: its query (kinds, monitor) and its items. Pure. */
import { ApiError } from '../common/http/api-error';
import { isIdText } from '../common/validation/ids';
import { toIso } from '../common/time';
import { EventKind, isEventKind } from './event-kinds';

export interface EventRow {
  id: number;
  at: number;
  kind: string;
  monitor_id: number | null;
  incident_id: number | null;
  actor: string | null;
  text: string;
  data: string | null;
}

/** One timeline item as answered (docs/events.md). */
export interface TimelineItem {
  id: number;
  at: string;
  kind: string;
  monitor_id: number | null;
  /** The incident whose timeline the line is part of, if any. */
  incident_id: number | null;
  /** `owner`, `key:<name>` or `system`; null on lines from before actors were recorded. */
  actor: string | null;
  text: string;
  /** Details by kind (docs/events.md); null when the line has none. */
  data: Record<string, unknown> | null;
}

export interface TimelineFilter {
  /** null: every kind. */
  kinds: EventKind[] | null;
  monitorId: number | null;
}

export function toTimelineItem(r: EventRow): TimelineItem {
  return {
    id: r.id,
    at: toIso(r.at),
    kind: r.kind,
    monitor_id: r.monitor_id,
    incident_id: r.incident_id,
    actor: r.actor,
    text: r.text,
    data: parseData(r.data),
  };
}

function parseData(data: string | null): Record<string, unknown> | null {
  if (data === null) return null;
  try {
    const v = JSON.parse(data) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * `kind`: one kind or a comma list (`down,up,path`); an unknown kind is a 422 naming it.
 * `monitor_id`: a monitor id; lines of a deleted monitor stay findable by its old id.
 */
export function timelineFilter(query: Record<string, unknown>): TimelineFilter {
  const errors: { field: string; message: string }[] = [];
  let kinds: EventKind[] | null = null;
  if (query.kind !== undefined) {
    const parts = typeof query.kind === 'string' ? query.kind.split(',').map((k) => k.trim()) : [];
    const unknown = parts.filter((k) => !isEventKind(k));
    if (parts.length === 0 || parts.some((k) => k === ''))
      errors.push({ field: 'kind', message: 'must be one kind or a comma-separated list of kinds' });
    else if (unknown.length)
      errors.push({
        field: 'kind',
        message: `unknown kind ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} (see docs/events.md)`,
      });
    else kinds = [...new Set(parts as EventKind[])];
  }
  let monitorId: number | null = null;
  if (query.monitor_id !== undefined) {
    if (isIdText(query.monitor_id)) monitorId = Number(query.monitor_id);
    else errors.push({ field: 'monitor_id', message: 'must be a monitor id' });
  }
  if (errors.length) throw ApiError.invalid(errors);
  return { kinds, monitorId };
}
