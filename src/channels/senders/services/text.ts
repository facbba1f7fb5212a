/**
 * The title and text of a push or chat service's message (ntfy, Gotify, Telegram, Pushover,
 * Matrix, Home Assistant, Apprise), in the service's markup: one line per event (a single event
 * gets its target, how long, its description and a runbook link below), cut at whole events to
 * the service's length limit with "… and N more", as the chat kinds do (chat-shapes.ts). Pure.
 */
import type { AlertEvent, OutboundMessage } from '../../channel-kind';
import {
  clip,
  eventWords,
  formatDuration,
  monitorLink,
  oneLine,
  safeLink,
  subjectOf,
  titleOf,
  Tone,
} from '../../messages';

export interface Markup {
  escape(text: string): string;
  strong(text: string): string;
  link(url: string, label: string): string;
  /** Length as the service counts it (characters by default; ntfy counts bytes). */
  measure?(text: string): number;
}

export const PLAIN: Markup = {
  escape: (t) => t,
  strong: (t) => t,
  link: (url, label) => `${label}: ${url}`,
};

/** HTML as Telegram and Matrix take it: only &, < and > (and " in attributes) are special. */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export const HTML: Markup = {
  escape: htmlEscape,
  strong: (t) => `<b>${t}</b>`,
  link: (url, label) => `<a href="${htmlEscape(url)}">${htmlEscape(label)}</a>`,
};

export const EMOJI: Record<Tone, string> = { bad: '🔴', warn: '🟠', good: '🟢', info: 'ℹ️' };
const DESCRIPTION_MAX = 300;
/** Room kept for the "… and N more" line. */
const MORE_ROOM = 40;

export interface AlertText {
  /** One line: the event's title, or the batch's tally and names. */
  title: string;
  text: string;
  /** Events left out for length. */
  more: number;
  /** The single event's monitor page (a click target), or the dashboard for a batch. */
  link: string;
  /** The single event's runbook, when it has one. */
  runbook: string | null;
}

export interface TextOptions {
  publicUrl: string;
  test?: boolean;
  /** The most the text may measure. */
  budget: number;
  /** Leave the title out of the text (services with a title field of their own). */
  titled?: boolean;
  /** Emoji before each event's line (not where the service has its own tags or priority colours). */
  emoji?: boolean;
}

export function alertText(message: OutboundMessage, events: AlertEvent[], markup: Markup, o: TextOptions): AlertText {
  const measure = markup.measure ?? ((t: string) => t.length);
  const single = events.length === 1;
  const test = message.test ?? false;
  const title = subjectOf(message, events);
  const parts: string[] = [];
  if (!o.titled) parts.push(markup.strong(markup.escape(title)));
  else if (!single) parts.push(markup.escape(title));
  let used = measure(parts.join('\n'));
  let shown = 0;
  for (const e of events) {
    const block = single ? singleBlock(e, markup, o, test) : lineOf(e, markup, o, test);
    if (used + measure(block) + 1 > o.budget - MORE_ROOM) break;
    parts.push(block);
    used += measure(block) + 1;
    shown++;
  }
  const more = events.length - shown;
  if (more > 0) parts.push(markup.escape(`… and ${more} more`));
  const monitor = single ? events[0].monitor : null;
  return {
    title,
    text: parts.filter((p) => p !== '').join('\n'),
    more,
    link: monitor ? monitorLink(o.publicUrl, monitor.id) : o.publicUrl,
    runbook: single ? safeLink(monitor?.runbook_url) : null,
  };
}

/** A batch's line: the event's title and its link. */
function lineOf(e: AlertEvent, markup: Markup, o: TextOptions, test: boolean): string {
  const w = eventWords(e, test);
  const head = `${o.emoji === false ? '' : `${EMOJI[w.tone]} `}${markup.escape(titleOf(w))}`;
  return e.monitor ? `${head} · ${markup.link(monitorLink(o.publicUrl, e.monitor.id), 'Open')}` : head;
}

/**
 * One event alone, below its title: target, how long, description and links; a notice (no
 * monitor) says its words again where the title is a field of its own and the text must not be empty.
 */
function singleBlock(e: AlertEvent, markup: Markup, o: TextOptions, test: boolean): string {
  if (!e.monitor) {
    const w = eventWords(e, test);
    return o.titled ? markup.escape(oneLine(e.message) || titleOf(w)) : '';
  }
  const lines = [markup.escape(e.monitor.target)];
  if (e.type === 'down' && e.duration_ms !== undefined)
    lines.push(markup.escape(`failing for ${formatDuration(e.duration_ms)}`));
  if (e.monitor.description) lines.push(markup.escape(clip(oneLine(e.monitor.description), DESCRIPTION_MAX)));
  const runbook = safeLink(e.monitor.runbook_url);
  const links = [markup.link(monitorLink(o.publicUrl, e.monitor.id), 'Open in Farsight')];
  if (runbook) links.push(markup.link(runbook, 'Runbook'));
  lines.push(links.join(' · '));
  return lines.join('\n');
}
