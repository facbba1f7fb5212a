/**
 * Pushover (https://pushover.net/api): POST messages.json with {token, user, title, message,
 * priority, url, url_title, device?}. Down and reminders priority 1 (high: past quiet hours), up
 * and the rest 0. Title at most 250 characters, message 1,024, url 512 (#limits). The answer is
 * {"status":1} on success; invalid input a 4xx with {"status":0,"errors":[…]}: permanent.
 *
 * config: {user_key (secret), app_token (secret), device (optional)}. The API's address is fixed
 * (FARSIGHT_PUSHOVER_API for a proxy or a test receiver): the keys stay with a changed config.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { clip, shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, textField, tokenField } from './fields';
import { alertText, PLAIN } from './text';

export interface PushoverConfig {
  user_key: string;
  app_token: string;
  device: string | null;
}

/** User and group keys, application tokens: 30 letters and digits (#identifiers). */
export const PUSHOVER_KEY = /^[A-Za-z0-9]{30}$/;
/** Device names: up to 25 letters, digits, _ or -; several separated by commas. */
export const PUSHOVER_DEVICE = /^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$/;

function parsePushover(raw: unknown): ParsedConfig<PushoverConfig> {
  const open = openConfig(raw, ['user_key', 'app_token', 'device']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const user = tokenField(
    body,
    'user_key',
    errors,
    PUSHOVER_KEY,
    'your user key: 30 letters and digits (pushover.net, top of the dashboard)',
  );
  const app = tokenField(
    body,
    'app_token',
    errors,
    PUSHOVER_KEY,
    'an application token: 30 letters and digits (pushover.net → Create an Application)',
  );
  const device = textField(
    body,
    'device',
    errors,
    PUSHOVER_DEVICE,
    'a device name (letters, digits, _ or -, at most 25), or several separated by commas',
    true,
  );
  return parsed(errors, { user_key: user ?? '', app_token: app ?? '', device });
}

export function pushoverBody(
  config: PushoverConfig,
  message: OutboundMessage,
  now: number,
  publicUrl: string,
): Record<string, unknown> {
  const events = shownEvents(message, now);
  const t = alertText(message, events, PLAIN, {
    publicUrl,
    test: message.test,
    budget: 1024,
    titled: true,
    emoji: events.length > 1,
  });
  const urgent = events.some((e) => e.type === 'down' || e.type === 'reminder');
  return {
    token: config.app_token,
    user: config.user_key,
    title: clip(t.title, 250),
    message: t.text,
    priority: urgent ? 1 : 0,
    ...(t.link.length <= 512 ? { url: t.link, url_title: 'Open in Farsight' } : {}),
    ...(config.device ? { device: config.device } : {}),
    timestamp: Math.floor((events[events.length - 1]?.at ?? now) / 1000),
  };
}

async function sendPushover(config: PushoverConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(pushoverBody(config, message, systemClock.now(), ctx.publicUrl));
  return callService(
    'pushover',
    {
      url: ctx.apis.pushover,
      body,
      headers: { 'Content-Type': 'application/json' },
      secrets: [config.user_key, config.app_token],
    },
    ctx,
  );
}

export const pushoverSender: ChannelSender<PushoverConfig> = {
  kind: 'pushover',
  secrets: [{ path: 'user_key' }, { path: 'app_token' }],
  destination: [],
  parseConfig: parsePushover,
  send: sendPushover,
};
