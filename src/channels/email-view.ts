/**
 * What an alert email shows, as a view model the templates only format (views/email/alert.html.hbs
 * and alert.text.hbs). Pure. Colours live here, not in the template, so light and dark stay in step:
 * every coloured text sits on a background colour of its own, never on whatever the mail client
 * paints, and each pair has a contrast of at least 4.5:1 (checked in test/channels/email-render).
 */
import type { AlertEvent, OutboundMessage } from './channel-kind';
import {
  clip,
  eventWords,
  formatDuration,
  formatWhen,
  monitorLink,
  safeLink,
  subjectOf,
  tallyOf,
  titleOf,
  Tone,
  WordLimits,
} from './messages';

/** Cards in one email; a larger batch names the rest by count (1,000 monitors down is one email, not 1 MB). */
export const EMAIL_EVENTS_MAX = 50;
const DESCRIPTION_MAX = 500;
/** A card has room for a monitor's whole name (at most 100) and a long error; the subject stays short. */
const CARD_LIMITS: WordLimits = { name: 120, detail: 500 };

export interface EmailFact {
  label: string;
  value: string;
}

export interface EmailEventView {
  tone: Tone;
  label: string;
  /** The monitor's name, or null for notices. */
  name: string | null;
  detail: string;
  /** The one-line title, for the text part. */
  title: string;
  facts: EmailFact[];
  description: string | null;
  link: string | null;
  runbook: string | null;
  colors: ToneColors;
}

export interface EmailView {
  subject: string;
  /** "3 alerts: 2 down, 1 up" above a batch; null for one event. */
  heading: string | null;
  events: EmailEventView[];
  /** Events left out past EMAIL_EVENTS_MAX. */
  more: number;
  publicUrl: string;
}

export interface ToneColors {
  /** The card's left edge. */
  edge: string;
  /** The label chip, light. */
  chipBg: string;
  chipFg: string;
}

/** Light colours; dark ones are in the template's prefers-color-scheme block, by tone class. */
export const TONE_COLORS: Record<Tone, ToneColors> = {
  bad: { edge: '#d92d20', chipBg: '#fee4e2', chipFg: '#912018' },
  warn: { edge: '#dc6803', chipBg: '#fef0c7', chipFg: '#7a2e0e' },
  good: { edge: '#039855', chipBg: '#d1fadf', chipFg: '#05603a' },
  info: { edge: '#667085', chipBg: '#eaecf0', chipFg: '#344054' },
};

function facts(e: AlertEvent): EmailFact[] {
  const out: EmailFact[] = [];
  const m = e.monitor;
  if (m) out.push({ label: 'Target', value: m.target });
  if (m?.group) out.push({ label: 'Group', value: m.group });
  // up and slow say how long in their detail ("after 12 min"); down and reminders say it here.
  const durationLabel = ({ down: 'Failing for', reminder: 'Down for' } as Record<string, string>)[e.type];
  if (e.duration_ms !== undefined && durationLabel)
    out.push({ label: durationLabel, value: formatDuration(e.duration_ms) });
  // The error is the detail of down, slow and reminder titles; other events still show theirs.
  if (e.error && !['down', 'slow', 'reminder', 'cert'].includes(e.type))
    out.push({ label: 'Error', value: e.error.message });
  out.push({ label: 'When', value: formatWhen(e.at) });
  return out;
}

function eventView(e: AlertEvent, publicUrl: string, test: boolean): EmailEventView {
  const words = eventWords(e, test, CARD_LIMITS);
  const description = e.monitor?.description?.trim() || null;
  return {
    tone: words.tone,
    label: words.label,
    name: words.name,
    detail: words.detail,
    title: titleOf(words),
    facts: facts(e),
    description: description && clip(description, DESCRIPTION_MAX),
    link: e.monitor ? monitorLink(publicUrl, e.monitor.id) : null,
    runbook: safeLink(e.monitor?.runbook_url),
    colors: TONE_COLORS[words.tone],
  };
}

export function emailView(message: OutboundMessage, events: AlertEvent[], publicUrl: string): EmailView {
  const shown = events.slice(0, EMAIL_EVENTS_MAX);
  return {
    subject: subjectOf(message, events),
    heading: events.length > 1 ? tallyOf(events) : null,
    events: shown.map((e) => eventView(e, publicUrl, message.test ?? false)),
    more: events.length - shown.length,
    publicUrl: publicUrl.replace(/\/+$/, ''),
  };
}
