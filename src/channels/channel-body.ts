/**
 * A channel as stored and answered, and what POST and PATCH /channels accept. The kind's own
 * config is checked by its sender (senders/); masked secrets are kept by the caller. Pure.
 */
import { ApiError, FieldError } from '../common/http/api-error';
import { isMask } from '../common/secrets/secrets';
import { KeepRule } from '../common/secrets/secret-fields';
import { nameProblem } from '../common/validation/text-rules';
import { toIso } from '../common/time';
import { requireObjectBody } from '../common/validation/validation';
import { ALERT_EVENTS, AlertEventType, CHANNEL_KINDS, ChannelKind, ChannelSender } from './channel-kind';

/** A stored channel: its input, with its id and times. `config` holds real secret values (sealed only on disk). */
export interface Channel extends ChannelInput {
  id: number;
  created_at: number;
  updated_at: number;
}

/** The latest attempt's outcome: `ok`, `failed` (the latest attempt failed), or `none` yet. */
export interface ChannelStatus {
  state: 'ok' | 'failed' | 'none';
  at: string | null;
  error: string | null;
}

/** The answer: the channel without its times, `config` masked, plus `status` (spec "Alert channel"). */
export type ChannelAnswer = Omit<Channel, 'created_at' | 'updated_at'> & { status: ChannelStatus };

export const DEFAULT_EVENTS: readonly AlertEventType[] = ALERT_EVENTS;

export interface ChannelInput {
  kind: ChannelKind;
  name: string;
  enabled: boolean;
  events: AlertEventType[];
  config: Record<string, unknown>;
}

export type ChannelPatch = Partial<Omit<ChannelInput, 'kind'>>;

const FIELDS = ['kind', 'name', 'enabled', 'events', 'config'];
/** A channel's name, in characters (like a monitor's). */
export const NAME_MAX = 100;

/** POST /channels: kind and config required; enabled defaults to true, events to every event. */
export function parseChannelCreate(body: unknown, senderOf: (k: ChannelKind) => ChannelSender): ChannelInput {
  requireObjectBody(body);
  const errors = unknownFields(body);
  const kind = body.kind;
  if (typeof kind !== 'string' || !(CHANNEL_KINDS as readonly string[]).includes(kind)) {
    errors.push({ field: 'kind', message: `must be one of ${CHANNEL_KINDS.join(', ')}` });
  }
  const name = readName(body.name, errors, true);
  const enabled = readEnabled(body.enabled, errors) ?? true;
  const events = body.events === undefined ? [...DEFAULT_EVENTS] : readEvents(body.events, errors);
  let config: Record<string, unknown> | null = null;
  if (body.config === undefined) errors.push({ field: 'config', message: 'required' });
  else if (errors.every((e) => e.field !== 'kind'))
    config = readConfig(senderOf(kind as ChannelKind), body.config, errors);
  if (errors.length) throw ApiError.invalid(errors);
  return {
    kind: kind as ChannelKind,
    name: name as string,
    enabled,
    events: events as AlertEventType[],
    config: config as Record<string, unknown>,
  };
}

/** PATCH /channels/{id}: any of name, enabled, events, config; the kind cannot change. */
export function parseChannelPatch(
  body: unknown,
  kind: ChannelKind,
  senderOf: (k: ChannelKind) => ChannelSender,
): ChannelPatch {
  requireObjectBody(body);
  const errors = unknownFields(body);
  if (body.kind !== undefined && body.kind !== kind)
    errors.push({ field: 'kind', message: 'a channel keeps its kind: create a new channel instead' });
  const patch: ChannelPatch = {};
  if (body.name !== undefined) patch.name = readName(body.name, errors, true) ?? undefined;
  if (body.enabled !== undefined) patch.enabled = readEnabled(body.enabled, errors) ?? undefined;
  if (body.events !== undefined) patch.events = readEvents(body.events, errors) ?? undefined;
  if (body.config !== undefined) patch.config = readConfig(senderOf(kind), body.config, errors) ?? undefined;
  if (errors.length) throw ApiError.invalid(errors);
  return patch;
}

/**
 * A channel's stored secrets are bound to where they go: `********` keeps a stored secret only
 * while the kind's destination fields (the URL, an ntfy or Gotify server, a Matrix homeserver,
 * Telegram's api_base) stay the same; a field that is itself masked is the same. A kind with one
 * fixed address (Pushover, PagerDuty) always keeps them.
 */
export function sameReceiver(sender: Pick<ChannelSender, 'destination'>): KeepRule<Record<string, unknown>> {
  const fields = sender.destination ?? ['url'];
  return {
    sameDestination(next, prev) {
      return fields.every((f) => next[f] === undefined || isMask(next[f]) || next[f] === prev[f]);
    },
    changedMessage: `the ${fields.map((f) => (f === 'url' ? 'URL' : f.replace(/_/g, ' '))).join(' or ')} changed: send the secret again`,
  };
}

export function toChannelAnswer(c: Channel, masked: Record<string, unknown>, status: ChannelStatus): ChannelAnswer {
  return { id: c.id, kind: c.kind, name: c.name, enabled: c.enabled, events: [...c.events], config: masked, status };
}

export function channelStatus(last: { at: number; ok: number; error: string | null } | undefined): ChannelStatus {
  if (!last) return { state: 'none', at: null, error: null };
  return { state: last.ok ? 'ok' : 'failed', at: toIso(last.at), error: last.ok ? null : last.error };
}

function unknownFields(body: Record<string, unknown>): FieldError[] {
  return Object.keys(body)
    .filter((k) => !FIELDS.includes(k))
    .map((k) => ({
      field: k.slice(0, 60),
      message: 'unknown field (a channel has kind, name, enabled, events and config)',
    }));
}

function readName(raw: unknown, errors: FieldError[], required: boolean): string | null {
  if (raw === undefined) {
    if (!required) return null;
    errors.push({ field: 'name', message: 'required' });
    return null;
  }
  if (typeof raw !== 'string') {
    errors.push({ field: 'name', message: 'must be a string' });
    return null;
  }
  const problem = [...raw].length > NAME_MAX ? `must be 1-${NAME_MAX} characters` : nameProblem(raw);
  if (problem) {
    errors.push({ field: 'name', message: problem });
    return null;
  }
  return raw;
}

function readEnabled(raw: unknown, errors: FieldError[]): boolean | null {
  if (raw === undefined) return null;
  if (typeof raw === 'boolean') return raw;
  errors.push({ field: 'enabled', message: 'must be true or false' });
  return null;
}

function readEvents(raw: unknown, errors: FieldError[]): AlertEventType[] | null {
  if (!Array.isArray(raw)) {
    errors.push({ field: 'events', message: `must be an array of ${ALERT_EVENTS.join(', ')}` });
    return null;
  }
  const out: AlertEventType[] = [];
  raw.forEach((e, i) => {
    if (typeof e === 'string' && (ALERT_EVENTS as readonly string[]).includes(e)) {
      if (!out.includes(e as AlertEventType)) out.push(e as AlertEventType);
    } else errors.push({ field: `events[${i}]`, message: `unknown event; one of ${ALERT_EVENTS.join(', ')}` });
  });
  return out;
}

function readConfig(sender: ChannelSender, raw: unknown, errors: FieldError[]): Record<string, unknown> | null {
  const parsed = sender.parseConfig(raw);
  if (!parsed.ok) {
    errors.push(...parsed.errors);
    return null;
  }
  return parsed.config as Record<string, unknown>;
}
