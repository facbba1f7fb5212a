/**
 * The configs of the service kinds for the route description (channel.schema.ts takes them in):
 * what a body may send, and what an answer shows (secrets masked, every field present). Pure.
 */
import { JsonSchema, nullable, obj, str } from '../../../common/validation/common.schema';
import { MASK } from '../../../common/secrets/secrets';
import { URL_MAX } from '../config-fields';
import { NTFY_SERVER } from './ntfy';
import { TELEGRAM_API } from './telegram';

type ServiceKind = 'ntfy' | 'gotify' | 'telegram' | 'pushover' | 'matrix' | 'pagerduty' | 'home-assistant' | 'apprise';

const KEEP = `secret: \`${MASK}\` in answers; sending \`${MASK}\` back keeps the stored value`;
const secret = (what: string, pattern?: string, extra = ''): JsonSchema => ({
  anyOf: [str(pattern ? { pattern } : {}), { const: MASK }],
  description: `${what} (${KEEP}${extra})`,
});
const server = (what: string, fallback?: string): JsonSchema =>
  str({
    maxLength: URL_MAX,
    description: `${what}: http:// or https://, no query`,
    ...(fallback ? { default: fallback } : {}),
  });
const SAME_SERVER = ' while the server stays the same';
const masked = str({ description: 'masked' });

export const SERVICE_CONFIGS: Record<ServiceKind, JsonSchema> = {
  ntfy: obj(
    {
      server: server('the ntfy server', NTFY_SERVER),
      topic: str({ pattern: '^[-_A-Za-z0-9]{1,64}$' }),
      token: nullable(secret('an access token, tk_…; optional', undefined, SAME_SERVER)),
    },
    { required: ['topic'], description: 'ntfy: a push to a topic (docs/channels.md#ntfy)' },
  ),
  gotify: obj(
    {
      server: server('the Gotify server'),
      token: secret('an application token', '^A[A-Za-z0-9._-]{14}$', SAME_SERVER),
    },
    { description: 'gotify: a message to a Gotify application (docs/channels.md#gotify)' },
  ),
  telegram: obj(
    {
      bot_token: secret('the bot token from @BotFather', undefined, ' while api_base stays the same'),
      chat_id: { anyOf: [str({ pattern: '^(-?\\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$' }), { type: 'integer' }] },
      api_base: server('the Bot API server', TELEGRAM_API),
    },
    {
      required: ['bot_token', 'chat_id'],
      description: 'telegram: a bot’s message to a chat (docs/channels.md#telegram)',
    },
  ),
  pushover: obj(
    {
      user_key: secret('your user (or group) key', '^[A-Za-z0-9]{30}$'),
      app_token: secret('an application token', '^[A-Za-z0-9]{30}$'),
      device: nullable(str({ description: 'device names, comma-separated; optional' })),
    },
    {
      required: ['user_key', 'app_token'],
      description: 'pushover: a push through Pushover (docs/channels.md#pushover)',
    },
  ),
  matrix: obj(
    {
      homeserver: server('the homeserver'),
      access_token: secret('the sending account’s access token', undefined, SAME_SERVER),
      room_id: str({ description: 'a room id: !opaque:server' }),
    },
    { description: 'matrix: a message in a room (docs/channels.md#matrix)' },
  ),
  pagerduty: obj(
    { routing_key: secret('an Events API v2 integration key', '^[A-Za-z0-9]{32}$') },
    { description: 'pagerduty: incidents triggered, acknowledged and resolved (docs/channels.md#pagerduty)' },
  ),
  'home-assistant': obj(
    {
      url: server('Home Assistant’s address'),
      token: secret('a long-lived access token', undefined, ' while the URL stays the same'),
      service: str({ pattern: '^notify\\.[a-z0-9_]{1,100}$', description: 'notify.<name>' }),
    },
    { description: 'home-assistant: a notify action (docs/channels.md#home-assistant)' },
  ),
  apprise: obj(
    {
      url: secret('an Apprise API server’s notify URL, http(s)://host:8000/notify/<key>'),
      tags: nullable(str({ maxLength: 200, description: 'Apprise tags: a,b = any of; a b = all of; optional' })),
    },
    { required: ['url'], description: 'apprise: through an Apprise API server (docs/channels.md#apprise)' },
  ),
};

/** As answers show them. */
export const SERVICE_ANSWER_CONFIGS: JsonSchema[] = [
  obj({ server: str(), topic: str(), token: nullable(masked) }),
  obj({ server: str(), token: masked }),
  obj({ bot_token: masked, chat_id: str(), api_base: str() }),
  obj({ user_key: masked, app_token: masked, device: nullable(str()) }),
  obj({ homeserver: str(), access_token: masked, room_id: str() }),
  obj({ routing_key: masked }),
  obj({ url: str(), token: masked, service: str() }),
  obj({ url: masked, tags: nullable(str()) }),
];
