/**
 * ntfy (https://docs.ntfy.sh/publish/#publish-as-json): a JSON POST to the server's root with the
 * topic, title, message, priority (down and reminders 4 "high", so phones ring; the rest 3
 * "default"), tags (emoji shortcodes ntfy shows before the title), click (the monitor's page) and a
 * "view" action for the runbook. An access token goes as `Authorization: Bearer tk_…`
 * (https://docs.ntfy.sh/publish/#access-tokens). ntfy turns a message over 4,096 bytes into an
 * attachment (https://docs.ntfy.sh/config/#message-limits): the text stays under it.
 *
 * config: {server (default https://ntfy.sh), topic, token (secret, optional)}.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { eventWords, shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, serverField, textField, tokenField } from './fields';
import { alertText, PLAIN } from './text';

export interface NtfyConfig {
  server: string;
  topic: string;
  token: string | null;
}

export const NTFY_SERVER = 'https://ntfy.sh';
/** ntfy's topic names: letters, digits, _ and -, at most 64 (server/util.go topicRegex). */
export const NTFY_TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** Access tokens as ntfy prints them: tk_ and 29 letters and digits. */
export const NTFY_TOKEN = /^tk_[A-Za-z0-9]{29}$/;
const BYTES = 4096;

const TAGS = { bad: 'rotating_light', warn: 'warning', good: 'white_check_mark', info: 'information_source' } as const;

function parseNtfy(raw: unknown): ParsedConfig<NtfyConfig> {
  const open = openConfig(raw, ['server', 'topic', 'token']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const server = serverField(body, 'server', errors, NTFY_SERVER);
  const topic = textField(body, 'topic', errors, NTFY_TOPIC, 'a topic name: 1 to 64 letters, digits, _ or -');
  const token = tokenField(
    body,
    'token',
    errors,
    NTFY_TOKEN,
    'an access token: tk_ and 29 letters and digits (ntfy token add)',
    true,
  );
  return parsed(errors, { server, topic: topic ?? '', token });
}

/** The JSON ntfy takes for these events. */
export function ntfyBody(config: NtfyConfig, message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const measure = (t: string): number => Buffer.byteLength(t, 'utf8');
  const t = alertText(
    message,
    events,
    { ...PLAIN, measure },
    { publicUrl, test: message.test, budget: BYTES, titled: true, emoji: events.length > 1 },
  );
  const urgent = events.some((e) => e.type === 'down' || e.type === 'reminder');
  const tones = [...new Set(events.map((e) => eventWords(e, message.test).tone))];
  return {
    topic: config.topic,
    title: t.title,
    message: t.text,
    priority: urgent ? 4 : 3,
    tags: tones.map((tone) => TAGS[tone]),
    click: t.link,
    ...(t.runbook ? { actions: [{ action: 'view', label: 'Runbook', url: t.runbook, clear: false }] } : {}),
  };
}

async function sendNtfy(config: NtfyConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(ntfyBody(config, message, systemClock.now(), ctx.publicUrl));
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (config.token) headers.Authorization = `Bearer ${config.token}`;
  return callService(
    'ntfy',
    { url: `${config.server}/`, body, headers, secrets: config.token ? [config.token] : [] },
    ctx,
  );
}

export const ntfySender: ChannelSender<NtfyConfig> = {
  kind: 'ntfy',
  secrets: [{ path: 'token' }],
  destination: ['server'],
  parseConfig: parseNtfy,
  send: sendNtfy,
};
