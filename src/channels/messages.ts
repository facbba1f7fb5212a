/**
 * The words of alerts, in one place: the label and the short detail of each event, the one-line
 * title ("DOWN: NAS web UI — connection refused"), email subjects and durations. Every sender
 * says things the same way because it asks here. Pure.
 *
 * Titles and subjects are read in a phone's notification list, where the first 40 characters
 * are what counts: the label first, then the monitor's name, then why.
 */
import { clip, oneLine } from '../common/validation/text-rules';
import { formatDuration, formatWhen } from '../common/time';
import type { AlertEvent, OutboundMessage } from './channel-kind';

/** How an event should look: bad (red), warn (amber), good (green), info (neutral). */
export type Tone = 'bad' | 'warn' | 'good' | 'info';

export interface EventWords {
  /** Upper-case, first in a title: DOWN, UP, SLOW, ... */
  label: string;
  tone: Tone;
  /** Why, after the name; empty when the label says it all. */
  detail: string;
  /** The monitor's name, or null for the service's own notices. */
  name: string | null;
}

/** What a test message says (POST /channels/{id}/test). */
export const TEST_TEXT = 'Test message from Farsight: this channel works.';

const NAME_MAX = 40;
const DETAIL_MAX = 120;
const SUBJECT_MAX = 200;
/** Names listed in a batch subject before "+N". */
const SUBJECT_NAMES = 2;

// The text rules every alert sender uses, re-exported so senders ask one module for words.
export { clip, formatDuration, formatWhen, oneLine };

/**
 * Where the dashboard shows a monitor. One place: the dashboard's routes are not built yet, and
 * `/monitors/<id>` mirrors the API's path.
 */
export function monitorLink(publicUrl: string, monitorId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/monitors/${monitorId}`;
}

/** A link that may be shown: http or https only (a stored runbook_url is checked again here). */
export function safeLink(text: string | null | undefined): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The event's own message without the monitor's name in front ("NAS web UI: certificate expires
 * in 7 days" -> "certificate expires in 7 days"), for details that only the message carries.
 */
export function withoutName(message: string, name: string | null): string {
  const text = oneLine(message);
  if (!name || !text.startsWith(name)) return text;
  const rest = text
    .slice(name.length)
    .replace(/^\s*[:\-\u2014]\s*/, '')
    .trim();
  return rest || text;
}

/** How long names and details may be: short for titles and subjects, longer where there is room (an email's card). */
export interface WordLimits {
  name: number;
  detail: number;
}

/** Names an affected list shows before "and N more". */
export const AFFECTED_NAMES = 5;

/** "NAS, Plex and 998 more" */
export function affectedWords(a: { count: number; names: readonly string[] }): string {
  const shown = a.names.slice(0, AFFECTED_NAMES);
  const more = a.count - shown.length;
  const monitors = `${a.count.toLocaleString('en-US')} monitor${a.count === 1 ? '' : 's'}`;
  return `${monitors} (${shown.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''})`;
}

export const TITLE_LIMITS: WordLimits = { name: NAME_MAX, detail: DETAIL_MAX };

/** Label, tone and detail of one event. */
export function eventWords(event: AlertEvent, test = false, limits: WordLimits = TITLE_LIMITS): EventWords {
  const name = event.monitor ? clip(oneLine(event.monitor.name), limits.name) : null;
  const error = event.error ? oneLine(event.error.message) : '';
  const own = withoutName(event.message, event.monitor?.name ?? null);
  const took = event.duration_ms !== undefined ? formatDuration(event.duration_ms) : null;
  const words = (label: string, tone: Tone, detail: string): EventWords => ({
    label,
    tone,
    detail: clip(detail, limits.detail),
    name,
  });
  if (test) return words('TEST', 'info', own || TEST_TEXT);
  switch (event.type) {
    case 'down':
      if (event.affected?.also) return words('ALSO AFFECTED', 'bad', affectedWords(event.affected));
      return words(
        'DOWN',
        'bad',
        [error, event.affected ? `affected: ${affectedWords(event.affected)}` : ''].filter(Boolean).join('; '),
      );
    case 'up':
      return words('UP', 'good', took ? `after ${took}` : 'back up');
    case 'slow':
      return event.ended
        ? words('BACK TO NORMAL', 'good', took ? `slow for ${took}` : 'responding at normal speed')
        : words('SLOW', 'warn', error || 'responding slowly');
    case 'flapping':
      return event.ended
        ? words('STABLE', 'good', 'stopped flapping')
        : words('FLAPPING', 'warn', 'going up and down repeatedly');
    case 'cert':
      return words('CERT', 'warn', error || own);
    case 'reminder':
      return words(
        'STILL DOWN',
        'bad',
        [
          [took ? `${took} so far` : '', error].filter(Boolean).join(', '),
          event.affected ? `affected: ${affectedWords(event.affected)}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      );
    case 'notice':
      return words('NOTICE', 'info', own);
    case 'acknowledged':
      return words('ACKNOWLEDGED', 'info', own || 'someone is on it');
  }
}

/** "DOWN: NAS web UI — connection refused"; a notice: "NOTICE: Farsight was offline for 12 min". */
export function eventTitle(event: AlertEvent, test = false): string {
  return titleOf(eventWords(event, test));
}

export function titleOf(w: EventWords): string {
  const head = w.name ? `${w.label}: ${w.name}` : w.label;
  if (!w.detail) return head;
  return w.name ? `${head} — ${w.detail}` : `${head}: ${w.detail}`;
}

/**
 * The events a sender shows: a test message without events gets one notice saying it is a test,
 * so every kind has something to render (and a webhook receiver something to parse).
 */
export function shownEvents(message: OutboundMessage, now: number): AlertEvent[] {
  if (message.test && message.events.length === 0)
    return [{ type: 'notice', at: now, monitor: null, message: TEST_TEXT }];
  return message.events;
}

/** The key a batch subject counts an event under, most urgent first. */
const COUNT_ORDER = [
  'down',
  'still down',
  'flapping',
  'slow',
  'cert',
  'up',
  'back to normal',
  'stable',
  'acknowledged',
  'notice',
] as const;
type CountKey = (typeof COUNT_ORDER)[number];

function countKey(e: AlertEvent): CountKey {
  switch (e.type) {
    case 'reminder':
      return 'still down';
    case 'slow':
      return e.ended ? 'back to normal' : 'slow';
    case 'flapping':
      return e.ended ? 'stable' : 'flapping';
    default:
      return e.type;
  }
}

function countWords(key: CountKey, n: number): string {
  if (key === 'notice') return `${n} notice${n === 1 ? '' : 's'}`;
  if (key === 'cert') return `${n} certificate${n === 1 ? '' : 's'}`;
  return `${n} ${key}`;
}

/** "3 alerts: 2 down, 1 up": how many events of each kind, most urgent first. */
export function tallyOf(events: AlertEvent[]): string {
  const counts = new Map<CountKey, number>();
  for (const e of events) counts.set(countKey(e), (counts.get(countKey(e)) ?? 0) + 1);
  const tally = COUNT_ORDER.filter((k) => counts.has(k)).map((k) => countWords(k, counts.get(k) as number));
  return `${events.length} alert${events.length === 1 ? '' : 's'}: ${tally.join(', ')}`;
}

/**
 * One event: its title. Several: "3 alerts: 2 down, 1 up — NAS web UI, Router, +1", counts most
 * urgent first and the names of the most urgent monitors first.
 */
export function subjectOf(message: OutboundMessage, events: AlertEvent[] = message.events): string {
  if (events.length === 0) return message.test ? `TEST: ${TEST_TEXT}` : 'Farsight: no events';
  if (events.length === 1) return clip(eventTitle(events[0], message.test), SUBJECT_MAX);
  const rank = (e: AlertEvent): number => COUNT_ORDER.indexOf(countKey(e));
  const names = [
    ...new Set(
      [...events]
        .sort((a, b) => rank(a) - rank(b))
        .flatMap((e) => (e.monitor ? [clip(oneLine(e.monitor.name), NAME_MAX)] : [])),
    ),
  ];
  const shown = names.slice(0, SUBJECT_NAMES);
  if (names.length > SUBJECT_NAMES) shown.push(`+${names.length - SUBJECT_NAMES}`);
  const head = tallyOf(events);
  return clip(shown.length ? `${head} — ${shown.join(', ')}` : head, SUBJECT_MAX);
}
