/**
 * Chat services, recognised by their webhook URL, and the body each one takes. Pure: the chat
 * sender posts what this builds, and tests check every shape without a network.
 *
 *   slack        hooks.slack.com                          {text} in Slack mrkdwn
 *   discord      discord.com / discordapp.com /api/webhooks/  {content} (2,000 characters), no mentions
 *   teams        Power Automate / Teams workflow webhooks  an Adaptive Card message
 *   google-chat  chat.googleapis.com                      {text} in Google Chat's format
 *   chat         anything else (Mattermost, Rocket.Chat, other Slack-compatible receivers): {text}
 *
 * A message names every event (one line each, most recent last) until the service's length
 * limit, then says how many more there were.
 */
import type { AlertEvent } from './channel-kind';
import {
  clip,
  eventWords,
  EventWords,
  formatDuration,
  monitorLink,
  oneLine,
  safeLink,
  tallyOf,
  titleOf,
  Tone,
} from './messages';

export const CHAT_FORMATS = ['slack', 'discord', 'teams', 'google-chat', 'chat'] as const;
export type ChatFormat = (typeof CHAT_FORMATS)[number];

/** Characters per message, below each service's own limit (Discord refuses more than 2,000). */
const BUDGET: Record<ChatFormat, number> = {
  slack: 3500,
  discord: 2000,
  teams: 20000,
  'google-chat': 3500,
  chat: 3500,
};
/** Adaptive Cards grow slowly in Teams: past this many events the rest are counted. */
const TEAMS_EVENTS = 25;
const DESCRIPTION_MAX = 300;

const TEAMS_HOSTS = ['logic.azure.com', 'webhook.office.com', 'powerplatform.com', 'powerautomate.com'];

function hostIs(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The chat service a webhook URL belongs to, from its host (and, for Discord, its path). */
export function recogniseChat(url: URL): ChatFormat {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'hooks.slack.com' || host === 'hooks.slack-gov.com') return 'slack';
  if ((hostIs(host, 'discord.com') || hostIs(host, 'discordapp.com')) && url.pathname.startsWith('/api/webhooks/'))
    return 'discord';
  if (
    TEAMS_HOSTS.some((d) => hostIs(host, d)) ||
    (host === 'outlook.office.com' && url.pathname.startsWith('/webhook'))
  )
    return 'teams';
  if (host === 'chat.googleapis.com') return 'google-chat';
  return 'chat';
}

/** One event as chat messages show it, in plain words; each format escapes and links it. */
interface Item {
  words: EventWords;
  /** Plain lines under the title (target, how long, description): single-event messages only. */
  lines: string[];
  link: string | null;
  runbook: string | null;
}

interface Rendering {
  header: string | null;
  items: Item[];
  /** Events left out for length. */
  more: number;
}

const EMOJI: Record<Tone, string> = { bad: '🔴', warn: '🟠', good: '🟢', info: 'ℹ️' };

/** The body to POST for these events. */
export function chatBody(
  format: ChatFormat,
  events: AlertEvent[],
  options: { publicUrl: string; test?: boolean },
): object {
  const items = events.map((e) => item(e, options.publicUrl, events.length === 1, options.test ?? false));
  const header = events.length > 1 ? tallyOf(events) : null;
  switch (format) {
    case 'teams':
      return teamsCard(fit({ header, items, more: 0 }, TEAMS_EVENTS), options.publicUrl);
    case 'discord':
      return { content: textOf(format, header, items), allowed_mentions: { parse: [] } };
    default:
      return { text: textOf(format, header, items) };
  }
}

function item(e: AlertEvent, publicUrl: string, single: boolean, test: boolean): Item {
  const lines: string[] = [];
  if (single && e.monitor) {
    lines.push(e.monitor.target);
    if (e.type === 'down' && e.duration_ms !== undefined) lines.push(`failing for ${formatDuration(e.duration_ms)}`);
    if (e.monitor.description) lines.push(clip(oneLine(e.monitor.description), DESCRIPTION_MAX));
  }
  return {
    words: eventWords(e, test),
    lines,
    link: e.monitor ? monitorLink(publicUrl, e.monitor.id) : null,
    runbook: single ? safeLink(e.monitor?.runbook_url) : null,
  };
}

/** Keeps the first `max` items and counts the rest. */
function fit(r: Rendering, max: number): Rendering {
  return r.items.length <= max ? r : { ...r, items: r.items.slice(0, max), more: r.more + r.items.length - max };
}

/** The text of a {text} or {content} message, cut at whole events to the format's budget. */
function textOf(format: Exclude<ChatFormat, 'teams'>, header: string | null, items: Item[]): string {
  const style = STYLES[format];
  const parts: string[] = header ? [style.strong(style.escape(header))] : [];
  const budget = BUDGET[format] - 40; // room for "… and N more"
  let used = parts.join('\n').length;
  let shown = 0;
  for (const it of items) {
    const block = blockText(style, it);
    if (used + block.length + 1 > budget) break;
    parts.push(block);
    used += block.length + 1;
    shown++;
  }
  if (shown < items.length) parts.push(style.escape(`… and ${items.length - shown} more`));
  return parts.join('\n');
}

interface Style {
  escape(text: string): string;
  strong(text: string): string;
  link(url: string, label: string): string;
}

/** Slack mrkdwn and Google Chat: only &, < and > are special; links are <url|label>. */
const slackish: Style = {
  escape: (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  strong: (t) => `*${t}*`,
  link: (url, label) => `<${url.replace(/[|<>]/g, encodeURIComponent)}|${label}>`,
};

/**
 * Markdown (Discord, Mattermost, Rocket.Chat, Adaptive Cards): a backslash before each character
 * that formats inside a line, and before one that starts a heading, quote or list.
 */
export function markdownEscape(text: string): string {
  return text
    .replace(/[\\*_~`|[\]<>]/g, '\\$&')
    .replace(/^(?=[#+-])/, '\\')
    .replace(/^(\d+)\./, '$1\\.');
}

const STYLES: Record<Exclude<ChatFormat, 'teams'>, Style> = {
  slack: slackish,
  'google-chat': slackish,
  // Angle brackets keep Discord from unfolding a preview of every link.
  discord: { escape: markdownEscape, strong: (t) => `**${t}**`, link: (url, label) => `[${label}](<${url}>)` },
  // Bold differs between Mattermost (**) and Rocket.Chat (*): plain text and bare links read the same in both.
  chat: { escape: markdownEscape, strong: (t) => t, link: (url, label) => `${label}: ${url}` },
};

function blockText(style: Style, it: Item): string {
  const title = `${EMOJI[it.words.tone]} ${style.strong(style.escape(titleOf(it.words)))}`;
  const links = [
    it.link ? style.link(it.link, 'Open in Farsight') : null,
    it.runbook ? style.link(it.runbook, 'Runbook') : null,
  ].filter(Boolean);
  const lines = it.lines.map((l) => style.escape(l));
  // A batch keeps one line per event; a single event gets its details and links below.
  if (it.lines.length === 0 && !it.runbook) return links.length ? `${title} · ${links.join(' · ')}` : title;
  return [title, ...lines, ...(links.length ? [links.join(' · ')] : [])].join('\n');
}

const TEAMS_COLOR: Record<Tone, string> = { bad: 'Attention', warn: 'Warning', good: 'Good', info: 'Default' };

/** Adaptive Card TextBlocks take a little Markdown: escape it, and link with [label](url). */
function teamsCard(r: Rendering, publicUrl: string): object {
  const esc = markdownEscape;
  const body: object[] = [];
  if (r.header) body.push({ type: 'TextBlock', text: esc(r.header), weight: 'Bolder', size: 'Medium', wrap: true });
  for (const it of r.items) {
    body.push({
      type: 'TextBlock',
      text: esc(titleOf(it.words)),
      weight: 'Bolder',
      color: TEAMS_COLOR[it.words.tone],
      wrap: true,
      spacing: 'Medium',
    });
    const links = [
      it.link ? `[Open in Farsight](${it.link})` : null,
      it.runbook ? `[Runbook](${it.runbook})` : null,
    ].filter(Boolean);
    const lines = [...it.lines.map(esc), ...(links.length ? [links.join(' · ')] : [])];
    if (lines.length)
      body.push({ type: 'TextBlock', text: lines.join('\n\n'), isSubtle: true, wrap: true, spacing: 'None' });
  }
  if (r.more) body.push({ type: 'TextBlock', text: esc(`… and ${r.more} more`), isSubtle: true, wrap: true });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          actions: [{ type: 'Action.OpenUrl', title: 'Open Farsight', url: publicUrl }],
        },
      },
    ],
  };
}
