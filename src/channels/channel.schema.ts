/**
 * Channel bodies and answers (channel-body.ts and the kinds' parseConfig in senders/), the
 * delivery log (deliveries.service.ts) and the test answer, for the route description. Pure.
 */
import {
  bool,
  described,
  int,
  JsonSchema,
  list,
  nullable,
  obj,
  oneOfValues,
  page,
  pageQuery,
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
} from '../common/validation/common.schema';
import { MASK } from '../common/secrets/secrets';
import { ALERT_EVENTS, CHANNEL_KINDS } from './channel-kind';
import { NAME_MAX } from './channel-body';
import { CHAT_FORMAT_CHOICES } from './senders/chat';
import { URL_MAX } from './senders/config-fields';
import { RECIPIENTS_MAX } from './senders/email';
import { HEADER_VALUE_MAX, HEADERS_MAX, SECRET_MAX, SECRET_MIN } from './senders/webhook';
import { SERVICE_ANSWER_CONFIGS, SERVICE_CONFIGS } from './senders/services/configs.schema';

const SECRET = `secret: \`${MASK}\` in answers; sending \`${MASK}\` back keeps the stored value while the URL stays the same`;
const url = (extra = ''): JsonSchema => str({ maxLength: URL_MAX, description: `http:// or https:// URL${extra}` });
/** A secret field of a body: its own rules, or the mask that keeps the stored value. */
const orMask = (schema: JsonSchema): JsonSchema => ({
  anyOf: [schema, { const: MASK }],
  description: schema.description,
});

const CONFIGS: Record<(typeof CHANNEL_KINDS)[number], JsonSchema> = {
  email: obj(
    {
      to: list(str({ description: 'an email address' }), { minItems: 1, maxItems: RECIPIENTS_MAX, uniqueItems: true }),
    },
    {
      description: "email: sent through the server's mail providers (FARSIGHT_SMTP, then FARSIGHT_SMTP_FALLBACK)",
    },
  ),
  chat: obj(
    {
      url: url(`; the chat service's webhook (${SECRET})`),
      format: oneOfValues(CHAT_FORMAT_CHOICES, {
        default: 'auto',
        description: 'message shape; auto picks by the URL (docs/channels.md)',
      }),
    },
    { required: ['url'], description: 'chat: a chat service webhook' },
  ),
  webhook: obj(
    {
      url: url(` (${SECRET})`),
      secret: orMask(
        str({
          minLength: SECRET_MIN,
          maxLength: SECRET_MAX,
          description: `signing secret: ${SECRET_MIN} to ${SECRET_MAX} visible ASCII characters, no spaces (${SECRET})`,
        }),
      ),
      headers: list(obj({ name: str(), value: str({ maxLength: HEADER_VALUE_MAX, description: SECRET }) }), {
        maxItems: HEADERS_MAX,
        default: [],
      }),
    },
    { required: ['url', 'secret'], description: 'webhook: signed JSON (docs/channels.md)' },
  ),
  ...SERVICE_CONFIGS,
};

/** Configs as answers show them: secrets masked, every field present. */
const ANSWER_CONFIGS: JsonSchema[] = [
  obj({ to: list(str()) }),
  obj({ url: str({ description: 'masked' }), format: oneOfValues(CHAT_FORMAT_CHOICES) }),
  obj({
    url: str({ description: 'masked' }),
    secret: str({ description: 'masked' }),
    headers: list(obj({ name: str(), value: str({ description: 'masked' }) })),
  }),
  ...SERVICE_ANSWER_CONFIGS,
];

const KIND = oneOfValues(CHANNEL_KINDS);
const SERVICES_IN_WORDS =
  'ntfy {server, topic, token}, gotify {server, token}, telegram {bot_token, chat_id, api_base}, pushover {user_key, app_token, device}, matrix {homeserver, access_token, room_id}, pagerduty {routing_key}, home-assistant {url, token, service}, apprise {url, tags}';
const NAME = str({ minLength: 1, maxLength: NAME_MAX, description: 'a name: not blank, no control characters' });
const EVENTS = list(oneOfValues(ALERT_EVENTS), { description: 'alert events this channel receives' });
const CONFIG = {
  // anyOf: a chat {url} is also an apprise {url}; the kind decides which one applies.
  anyOf: CHANNEL_KINDS.map((k) => CONFIGS[k]),
  description: `by kind: email {to}, chat {url, format}, webhook {url, secret, headers}, ${SERVICES_IN_WORDS}`,
};

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function channelSchemas(): SchemaSet {
  return {
    ChannelInput: obj(
      {
        kind: KIND,
        name: NAME,
        enabled: bool({ default: true }),
        events: { ...EVENTS, default: [...ALERT_EVENTS] },
        config: CONFIG,
      },
      { required: ['kind', 'name', 'config'] },
    ),
    ChannelPatch: obj(
      {
        kind: described(KIND, 'a channel keeps its kind; only its own kind is accepted'),
        name: NAME,
        enabled: bool(),
        events: EVENTS,
        config: CONFIG,
      },
      {
        required: [],
        description: 'name, enabled, events: scope write; config: scope admin (and a fresh sign-in for a session)',
      },
    ),
    Channel: obj({
      id: int(1),
      kind: KIND,
      name: str(),
      enabled: bool(),
      events: EVENTS,
      config: {
        oneOf: ANSWER_CONFIGS,
        description: `by kind, secrets masked: email {to}, chat {url, format}, webhook {url, secret, headers}, ${SERVICES_IN_WORDS}`,
      },
      status: obj(
        { state: oneOfValues(['ok', 'failed', 'none']), at: nullable(time()), error: nullable(str()) },
        { description: "the latest attempt's outcome" },
      ),
    }),
    ChannelList: page(ref('Channel'), int()),
    ChannelTest: obj({
      ok: bool(),
      provider: described(
        nullable(str()),
        'who carried it: the mail provider, the chat service, webhook, or the service kind (ntfy, telegram, pagerduty, ...)',
      ),
      status: described(nullable(int()), 'HTTP status or SMTP reply code'),
      error: described(nullable(str()), 'why it failed; never a secret'),
    }),
    Delivery: obj(
      {
        id: int(1),
        at: time(),
        channel_id: described(nullable(int(1)), 'null once the channel is deleted'),
        channel_name: str(),
        ok: bool(),
        provider: nullable(str()),
        status: nullable(int()),
        error: nullable(str()),
        summary: str(),
        outbox_id: described(nullable(int(1)), 'ties the attempts of one message together'),
        outbox_state: oneOfValues(['sent', 'failed', 'retrying', null], {
          description: 'null once the message is pruned',
        }),
        monitor_ids: described(
          nullable(list(int(1))),
          'the monitors the message was about; null on tests and sign-in emails',
        ),
      },
      { description: 'One delivery attempt (spec "Delivery log row").' },
    ),
    DeliveryList: page(ref('Delivery'), int()),
  };
}

export const DELIVERY_QUERY: QueryParam[] = [
  { name: 'channel_id', schema: int(1), description: "one channel's attempts" },
  ...pageQuery(),
];
