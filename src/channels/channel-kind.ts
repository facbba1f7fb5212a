/**
 * What every alert channel kind is: one file per kind under senders/ implements ChannelSender,
 * and senders/registry.ts lists them. The outbox hands a sender one OutboundMessage (one or more
 * events batched over 20 s); the sender says how it went, and whether a failure is permanent
 * (no more retries). Pure types; no Nest, no database.
 */
import type { FieldError } from '../common/http/api-error';
import type { SecretSchema } from '../common/secrets/secret-fields';
import type { MailTransport, SendResult } from '../mail/mail-types';

export type { MailTransport, SendResult };

export const CHANNEL_KINDS = [
  'email',
  'chat',
  'webhook',
  'ntfy',
  'gotify',
  'telegram',
  'pushover',
  'matrix',
  'pagerduty',
  'home-assistant',
  'apprise',
] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Alert events a channel may subscribe to (spec "Events → Alert events"). */
export const ALERT_EVENTS = ['down', 'up', 'slow', 'flapping', 'cert', 'reminder', 'notice'] as const;
export type AlertEventType = (typeof ALERT_EVENTS)[number];
/**
 * What an event may be: an alert event, or `acknowledged`, queued only for kinds that carry an
 * incident's lifecycle (PagerDuty) when the owner acknowledges it; never subscribed to.
 */
export type EventType = AlertEventType | 'acknowledged';

/** The monitor an event is about, as the webhook body shows it (spec "Webhook delivery"). */
export interface AlertMonitor {
  id: number;
  name: string;
  slug: string;
  group: string | null;
  /** describeTarget(): "GET https://nas.lan/", "db.lan:5432", ... (never a secret). */
  target: string;
  /** The monitored URL for http monitors, else null. */
  url: string | null;
  /** For emails and chat: the monitor's description and runbook link, when set. */
  description?: string | null;
  runbook_url?: string | null;
}

/** One alert event. The webhook body's `events[]` items are exactly the spec fields of this. */
export interface AlertEvent {
  type: EventType;
  /** Epoch ms (RFC 3339 on the wire). */
  at: number;
  /** null for the service's own notices. */
  monitor: AlertMonitor | null;
  /** One line for people: "NAS web UI is down: connection refused". */
  message: string;
  /** down/up: how long it was down (up) or has been failing (down); reminder: down so far. */
  duration_ms?: number;
  error?: { code: string; message: string };
  /**
   * slow: back to normal speed; flapping: stopped flapping. Picks the words of emails and chat
   * messages; not part of the webhook body (whose `message` says it in words).
   */
  ended?: boolean;
  /**
   * The incident a down, up, reminder or acknowledgement is about: PagerDuty's dedup_key. Not
   * part of the webhook body.
   */
  incident_id?: number;
  /**
   * down: monitors that depend on this one and are down with it (docs/dependencies.md): how many,
   * and the first names. `also`: they joined after this monitor's own down alert went out.
   */
  affected?: { count: number; names: string[]; also?: boolean };
}

/** What one send carries: one or more events for one channel (batched over 20 s). */
export interface OutboundMessage {
  /**
   * The outbox id, the same on every attempt of this message: receivers dedupe on it (webhook
   * header `X-Service-Message-Id`, email `Message-ID`), because delivery is at-least-once.
   */
  id: string;
  events: AlertEvent[];
  /** POST /channels/{id}/test: a test message, no monitor. */
  test?: boolean;
}

/** Where a sender sends from: settings it needs that are not the channel's own. */
export interface SendContext {
  /** allow_private_targets from settings: receivers at private addresses are refused when false (judged on the connected address). */
  allowPrivate: boolean;
  /** The dashboard's origin, for links in messages. */
  publicUrl: string;
  /** The mail path (email channels, sign-in and reset emails). */
  mail: MailTransport;
  /** Extra CA certificates (PEM) to trust for receivers, tests only. */
  ca?: string;
  /** The fixed API addresses of hosted services (AppConfig.serviceApis). */
  apis: { pushover: string; pagerduty: string };
  /** The deadline of one exchange with a receiver; RECEIVER_TIMEOUT_MS unless a test asks for less. */
  timeoutMs?: number;
}

export type ParsedConfig<C> = { ok: true; config: C } | { ok: false; errors: FieldError[] };

export interface ChannelSender<C = unknown> {
  readonly kind: ChannelKind;
  /**
   * Checks a config body. Errors use dotted paths from the channel body: `config.to[2]`,
   * `config.headers[0].name`. A secret field may hold `********` (MASK, common/secrets/secrets.ts): the
   * caller then keeps the stored value (common/secrets/secret-fields.ts keepSecrets) before using it.
   */
  parseConfig(raw: unknown): ParsedConfig<C>;
  /** The secret fields of this kind's config (`url`, `secret`, `headers[*].value`): masked in answers, sealed at rest. */
  readonly secrets: SecretSchema;
  /**
   * The config fields that say where the secrets go (rule 2 of secret handling: `********` keeps a
   * stored secret only while these stay the same); `['url']` unless the kind says otherwise, `[]`
   * for a service with one fixed address.
   */
  readonly destination?: readonly string[];
  send(config: C, message: OutboundMessage, ctx: SendContext): Promise<SendResult>;
}
