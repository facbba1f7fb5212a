/**
 * Gotify (https://gotify.net/api-docs, "POST /message"): {title, message, priority, extras} with
 * the application token in the X-Gotify-Key header (never in the query, where proxies log it).
 * Priority: down and reminders 8 (the Android app pops them up), warnings 5, the rest 4
 * (https://github.com/gotify/android#message-priorities). extras: plain text, and a click that
 * opens the monitor's page (https://gotify.net/docs/msgextras).
 *
 * config: {server, token (secret)}.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { eventWords, shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, serverField, tokenField } from './fields';
import { alertText, PLAIN } from './text';

export interface GotifyConfig {
  server: string;
  token: string;
}

/** Application tokens as Gotify makes them: A and 14 of letters, digits, . _ - (auth/token.go). */
export const GOTIFY_TOKEN = /^A[A-Za-z0-9._-]{14}$/;
const BUDGET = 4000;

function parseGotify(raw: unknown): ParsedConfig<GotifyConfig> {
  const open = openConfig(raw, ['server', 'token']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const server = serverField(body, 'server', errors);
  const token = tokenField(
    body,
    'token',
    errors,
    GOTIFY_TOKEN,
    'an application token: 15 characters starting with A (Apps → the app’s token)',
  );
  return parsed(errors, { server, token: token ?? '' });
}

export function gotifyBody(message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const t = alertText(message, events, PLAIN, {
    publicUrl,
    test: message.test,
    budget: BUDGET,
    titled: true,
    emoji: events.length > 1,
  });
  const tones = events.map((e) => eventWords(e, message.test).tone);
  const urgent = events.some((e) => e.type === 'down' || e.type === 'reminder');
  return {
    title: t.title,
    message: t.text,
    priority: urgent ? 8 : tones.includes('warn') ? 5 : 4,
    extras: {
      'client::display': { contentType: 'text/plain' },
      'client::notification': { click: { url: t.link } },
    },
  };
}

async function sendGotify(config: GotifyConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(gotifyBody(message, systemClock.now(), ctx.publicUrl));
  return callService(
    'gotify',
    {
      url: `${config.server}/message`,
      body,
      headers: { 'Content-Type': 'application/json', 'X-Gotify-Key': config.token },
      secrets: [config.token],
    },
    ctx,
  );
}

export const gotifySender: ChannelSender<GotifyConfig> = {
  kind: 'gotify',
  secrets: [{ path: 'token' }],
  destination: ['server'],
  parseConfig: parseGotify,
  send: sendGotify,
};
