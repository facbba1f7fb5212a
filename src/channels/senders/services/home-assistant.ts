/**
 * Home Assistant (https://developers.home-assistant.io/docs/api/rest/, "POST /api/services/<domain>/<service>"):
 * POST <url>/api/services/notify/<name> with a long-lived access token as `Authorization: Bearer`
 * and {title, message, data: {url, clickAction}}: the companion app opens the monitor's page on a
 * tap (https://companion.home-assistant.io/docs/notifications/notifications-basic/#opening-a-url).
 *
 * config: {url (Home Assistant's address), token (secret), service (notify.mobile_app_phone)}.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, serverField, textField, tokenField } from './fields';
import { alertText, PLAIN } from './text';

export interface HomeAssistantConfig {
  url: string;
  token: string;
  service: string;
}

/** Long-lived access tokens are JWTs: three base64url parts. */
export const HA_TOKEN = /^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/;
/** A notify service: notify.<name> (Developer tools → Actions lists them). */
export const HA_SERVICE = /^notify\.[a-z0-9_]{1,100}$/;
const BUDGET = 2000;

function parseHomeAssistant(raw: unknown): ParsedConfig<HomeAssistantConfig> {
  const open = openConfig(raw, ['url', 'token', 'service']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const url = serverField(body, 'url', errors);
  const token = tokenField(
    body,
    'token',
    errors,
    HA_TOKEN,
    'a long-lived access token (your profile → Security → Long-lived access tokens)',
  );
  const service = textField(
    body,
    'service',
    errors,
    HA_SERVICE,
    'a notify service such as notify.mobile_app_phone (lower-case letters, digits and _ after notify.)',
  );
  return parsed(errors, { url, token: token ?? '', service: service ?? '' });
}

export function homeAssistantBody(message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const t = alertText(message, events, PLAIN, {
    publicUrl,
    test: message.test,
    budget: BUDGET,
    titled: true,
    emoji: events.length > 1,
  });
  return { title: t.title, message: t.text, data: { url: t.link, clickAction: t.link } };
}

async function sendHomeAssistant(
  config: HomeAssistantConfig,
  message: OutboundMessage,
  ctx: SendContext,
): Promise<SendResult> {
  const body = JSON.stringify(homeAssistantBody(message, systemClock.now(), ctx.publicUrl));
  const name = config.service.slice('notify.'.length);
  return callService(
    'home-assistant',
    {
      url: `${config.url}/api/services/notify/${name}`,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.token}` },
      secrets: [config.token],
    },
    ctx,
  );
}

export const homeAssistantSender: ChannelSender<HomeAssistantConfig> = {
  kind: 'home-assistant',
  secrets: [{ path: 'token' }],
  destination: ['url'],
  parseConfig: parseHomeAssistant,
  send: sendHomeAssistant,
};
