/**
 * What the incident routes accept: the list filters (`state`, `monitor_id`) and the PATCH body
 * ({acknowledged, note}), and the words of the timeline line a PATCH writes. Pure; the rules are
 * in docs/incidents.md.
 */
import { ApiError, FieldError } from '../common/http/api-error';
import { isIdText } from '../common/validation/ids';
import { clip, oneLine, textProblem } from '../common/validation/text-rules';
import { requireObjectBody } from '../common/validation/validation';
import type { IncidentRow } from '../events/incident';

export const INCIDENT_STATES = ['open', 'closed', 'all'] as const;
export type IncidentStateFilter = (typeof INCIDENT_STATES)[number];

/** A note's length limit, in characters. */
export const NOTE_MAX = 2000;

export interface IncidentFilter {
  state: IncidentStateFilter;
  monitorId: number | null;
}

/** `state` (default all) and `monitor_id` (a deleted monitor's id still finds its incidents). */
export function incidentFilter(query: Record<string, unknown>): IncidentFilter {
  const errors: FieldError[] = [];
  let state: IncidentStateFilter = 'all';
  if (query.state !== undefined && query.state !== '') {
    if (typeof query.state === 'string' && (INCIDENT_STATES as readonly string[]).includes(query.state))
      state = query.state as IncidentStateFilter;
    else errors.push({ field: 'state', message: `must be one of ${INCIDENT_STATES.join(', ')}` });
  }
  let monitorId: number | null = null;
  if (query.monitor_id !== undefined && query.monitor_id !== '') {
    if (isIdText(query.monitor_id)) monitorId = Number(query.monitor_id);
    else errors.push({ field: 'monitor_id', message: 'must be a monitor id' });
  }
  if (errors.length) throw ApiError.invalid(errors);
  return { state, monitorId };
}

export interface IncidentPatch {
  acknowledged?: boolean;
  /** null clears the note (so does an empty or blank string). */
  note?: string | null;
}

/** A PATCH body: only `acknowledged` (boolean) and `note` (string or null, at most NOTE_MAX characters). */
export function parseIncidentPatch(body: unknown): IncidentPatch {
  requireObjectBody(body);
  const errors: FieldError[] = [];
  const patch: IncidentPatch = {};
  for (const key of Object.keys(body)) {
    if (key !== 'acknowledged' && key !== 'note')
      errors.push({ field: key.slice(0, 60), message: 'unknown field (an incident takes acknowledged and note)' });
  }
  if ('acknowledged' in body) {
    if (typeof body.acknowledged === 'boolean') patch.acknowledged = body.acknowledged;
    else errors.push({ field: 'acknowledged', message: 'must be true or false' });
  }
  if ('note' in body) {
    const note = body.note;
    // The one text rule, multi-line: line breaks and tabs are welcome in a note, other controls are not text.
    const problem = typeof note === 'string' ? textProblem(note, { lines: true }) : null;
    if (note === null) patch.note = null;
    else if (typeof note !== 'string') errors.push({ field: 'note', message: 'must be a string or null' });
    else if ([...note].length > NOTE_MAX)
      errors.push({ field: 'note', message: `must be at most ${NOTE_MAX} characters` });
    else if (problem) errors.push({ field: 'note', message: problem });
    else patch.note = note.trim() === '' ? null : note;
  }
  if (errors.length) throw ApiError.invalid(errors);
  return patch;
}

export interface PatchOutcome {
  acknowledged_at: number | null;
  note: string | null;
  /** The timeline line this PATCH writes (every PATCH with a field writes one). */
  line: { kind: 'ack' | 'note'; text: string; data: Record<string, unknown> } | null;
}

/** How much of a note its timeline line quotes: the line is one line of a list, the note is on the incident. */
export const NOTE_IN_LINE = 200;

/**
 * The note as its timeline line quotes it: one line, at most NOTE_IN_LINE characters. It is
 * plain text (pages show it as text, never as markup), and the note passed the one text rule.
 */
const noteInLine = (note: string): string => clip(oneLine(note), NOTE_IN_LINE);

/**
 * Applies a PATCH to an incident: acknowledging twice keeps the first time; `acknowledged: false`
 * withdraws the acknowledgement. `who` is `owner` or `key:<name>`.
 */
export function applyIncidentPatch(
  row: Pick<IncidentRow, 'acknowledged_at' | 'note'>,
  patch: IncidentPatch,
  who: string,
  now: number,
): PatchOutcome {
  let acknowledged_at = row.acknowledged_at;
  let note = row.note;
  const said: string[] = [];
  if (patch.acknowledged === true) {
    if (acknowledged_at === null) {
      acknowledged_at = now;
      said.push('acknowledged');
    } else said.push(`acknowledged again (first acknowledged ${new Date(acknowledged_at).toISOString()}, kept)`);
  } else if (patch.acknowledged === false) {
    said.push(
      acknowledged_at === null ? 'withdrew an acknowledgement that was not given' : 'withdrew the acknowledgement',
    );
    acknowledged_at = null;
  }
  if (patch.note !== undefined) {
    if (patch.note === note) said.push('left the note unchanged');
    else
      said.push(
        patch.note === null
          ? 'cleared the note'
          : `${note === null ? 'added a note' : 'changed the note to'}: “${noteInLine(patch.note)}”`,
      );
    note = patch.note;
  }
  if (said.length === 0) return { acknowledged_at, note, line: null };
  const kind = patch.acknowledged !== undefined ? 'ack' : 'note';
  const data: Record<string, unknown> = {};
  if (patch.acknowledged !== undefined) data.acknowledged = acknowledged_at !== null;
  if (patch.note !== undefined) data.note = note !== null;
  return { acknowledged_at, note, line: { kind, text: `${who} ${said.join(' and ')}`, data } };
}
