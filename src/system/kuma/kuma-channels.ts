/**
 * One Kuma notification → one channel item of an export document, with what was not kept as notes,
 * or the reason it cannot be imported. The `config` column is JSON text whose `type` names the
 * provider (server/notification-providers/<provider>.js `name`, commit 6398a958); the keys read
 * are the ones each provider's `send` reads. The kinds of extensions.md section 3 (ntfy, gotify,
 * telegram, pushover, matrix, pagerduty, home-assistant, apprise) are built with that section's
 * field names whether or not this service has them yet (kuma-plan.ts skips what it lacks). Pure.
 */
import type { KumaRow } from './kuma-data';
import { bool, json, str } from './kuma-values';

export type ChannelMapping =
  | { ok: true; kind: string; item: Record<string, unknown>; notes: string[]; isDefault: boolean }
  | { ok: false; reason: string };

type Config = Record<string, unknown>;
type Build = (c: Config, notes: string[]) => { kind: string; config: Config } | string;

const EMAIL_MAX = 5;

const chat =
  (key: string, format: string): Build =>
  (c) => {
    const url = str(c[key]);
    return url ? { kind: 'chat', config: { url, format } } : `it has no webhook URL (${key})`;
  };

/** Kuma provider name → builder. A provider not here is skipped with its name. */
const BUILDERS: Record<string, Build> = {
  smtp: (c, notes) => {
    const to = ['smtpTo', 'smtpCC', 'smtpBCC'].flatMap((k) =>
      (str(c[k]) ?? '')
        .split(/[,;]/)
        .map((s) => s.trim())
        .filter(Boolean),
    );
    const unique = [...new Set(to)];
    if (unique.length === 0) return 'it has no recipient';
    if (unique.length > EMAIL_MAX)
      notes.push(`${unique.length - EMAIL_MAX} recipients left out: an email channel has at most ${EMAIL_MAX}`);
    if (str(c.smtpHost))
      notes.push(
        `Kuma's own SMTP server (${str(c.smtpHost)!.slice(0, 60)}) is not kept: mail goes out through FARSIGHT_SMTP here`,
      );
    return { kind: 'email', config: { to: unique.slice(0, EMAIL_MAX) } };
  },
  webhook: (c, notes) => {
    const url = str(c.webhookURL);
    if (!url) return 'it has no URL';
    const extra = json(c.webhookAdditionalHeaders);
    if (extra === undefined || (extra !== null && (typeof extra !== 'object' || Array.isArray(extra))))
      return 'its additional headers are not a JSON object';
    const headers = Object.entries((extra ?? {}) as Config).map(([name, value]) => ({ name, value: String(value) }));
    if (str(c.webhookContentType) && str(c.webhookContentType) !== 'json')
      notes.push(
        `Kuma's "${str(c.webhookContentType)!.slice(0, 20)}" body is not kept: this service posts its own JSON body (docs/channels.md)`,
      );
    // The signing secret is made by the importer (kuma-plan.ts): Kuma has none.
    return { kind: 'webhook', config: { url, headers } };
  },
  discord: chat('discordWebhookUrl', 'discord'),
  slack: chat('slackwebhookURL', 'slack'),
  teams: chat('webhookUrl', 'teams'),
  GoogleChat: chat('googleChatWebhookURL', 'google-chat'),
  ntfy: (c) => {
    const topic = str(c.ntfytopic);
    if (!topic) return 'it has no topic';
    const method = str(c.ntfyAuthenticationMethod) ?? 'none';
    if (method === 'usernamePassword')
      return 'it signs in to ntfy with a user name and password; a ntfy channel here takes an access token: create one in ntfy and add the channel by hand';
    const token = method === 'accessToken' ? str(c.ntfyaccesstoken) : null;
    return {
      kind: 'ntfy',
      config: { server: str(c.ntfyserverurl) ?? 'https://ntfy.sh', topic, ...(token ? { token } : {}) },
    };
  },
  gotify: (c) => {
    const server = str(c.gotifyserverurl);
    const token = str(c.gotifyapplicationToken);
    return server && token
      ? { kind: 'gotify', config: { server: server.replace(/\/+$/, ''), token } }
      : 'it has no server or token';
  },
  telegram: (c) => {
    const botToken = str(c.telegramBotToken);
    const chatId = str(c.telegramChatID);
    if (!botToken || !chatId) return 'it has no bot token or chat id';
    return {
      kind: 'telegram',
      config: {
        bot_token: botToken,
        chat_id: chatId,
        api_base: str(c.telegramServerUrl) ?? 'https://api.telegram.org',
      },
    };
  },
  pushover: (c) => {
    const user = str(c.pushoveruserkey);
    const app = str(c.pushoverapptoken);
    if (!user || !app) return 'it has no user key or application token';
    const device = str(c.pushoverdevice);
    return { kind: 'pushover', config: { user_key: user, app_token: app, ...(device ? { device } : {}) } };
  },
  matrix: (c) => {
    const homeserver = str(c.homeserverUrl);
    const token = str(c.accessToken);
    const room = str(c.internalRoomId);
    return homeserver && token && room
      ? { kind: 'matrix', config: { homeserver, access_token: token, room_id: room } }
      : 'it has no homeserver, access token or room id';
  },
  PagerDuty: (c, notes) => {
    const key = str(c.pagerdutyIntegrationKey);
    if (!key) return 'it has no integration key';
    const url = str(c.pagerdutyIntegrationUrl);
    if (url && !/^https:\/\/events\.pagerduty\.com\//.test(url))
      notes.push(`its integration URL (${url.slice(0, 60)}) is not kept: events go to PagerDuty's Events API v2`);
    return { kind: 'pagerduty', config: { routing_key: key } };
  },
  HomeAssistant: (c) => {
    const url = str(c.homeAssistantUrl);
    const token = str(c.longLivedAccessToken);
    if (!url || !token) return 'it has no URL or long-lived access token';
    return {
      kind: 'home-assistant',
      config: { url: url.replace(/\/+$/, ''), token, service: `notify.${str(c.notificationService) ?? 'notify'}` },
    };
  },
  apprise: () =>
    'Kuma runs the apprise command with a service URL; an apprise channel here posts to an Apprise API server: run one (caronc/apprise-api) and add the channel with its notify URL',
};

export const MAPPED_KUMA_PROVIDERS = Object.keys(BUILDERS);

export function mapNotification(row: KumaRow): ChannelMapping {
  const name = str(row.name);
  if (!name) return { ok: false, reason: 'it has no name' };
  const config = json(row.config);
  if (config === undefined || config === null || typeof config !== 'object' || Array.isArray(config))
    return { ok: false, reason: 'its config is not a JSON object' };
  const c = config as Config;
  const type = str(c.type);
  if (!type) return { ok: false, reason: 'its config names no provider (type)' };
  const build = BUILDERS[type];
  if (!build) return { ok: false, reason: `Kuma's "${type.slice(0, 40)}" notifications have no counterpart here` };
  const notes: string[] = [];
  const built = build(c, notes);
  if (typeof built === 'string') return { ok: false, reason: built };
  const isDefault = bool(row.is_default, false) || bool(c.isDefault, false);
  return {
    ok: true,
    kind: built.kind,
    item: {
      name: [...name].slice(0, 100).join(''),
      kind: built.kind,
      enabled: bool(row.active, true),
      config: built.config,
    },
    notes,
    isDefault,
  };
}
