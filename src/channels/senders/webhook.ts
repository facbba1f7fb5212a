/**
 * Webhook channels: signed JSON for the owner's own receivers (spec "Webhook delivery").
 *
 * Body: {service: "1", events: [{type, at, monitor, message, duration_ms?, error?}]}.
 * Headers: X-Service-Timestamp (epoch seconds), X-Service-Signature (hex HMAC-SHA256 of
 * `<timestamp>.<raw body>` under the channel's secret), X-Service-Message-Id (the outbox id, the
 * same on every retry: delivery is at-least-once, receivers dedupe on it), then the owner's headers.
 *
 * config: {url, secret, headers: [{name, value}]}; url, secret and every header value are secret.
 * The secret is required (16 to 256 visible ASCII characters) and never generated: every answer
 * masks it, so a generated one could never be copied to the receiver.
 */
import { createHmac } from 'node:crypto';
import type { FieldError } from '../../common/http/api-error';
import { systemClock } from '../../common/clock';
import type { SecretSchema } from '../../common/secrets/secret-fields';
import { isMask } from '../../common/secrets/secrets';
import { fieldValueProblem, isFieldName } from '../../common/validation/text-rules';
import { toIso } from '../../common/time';
import type {
  AlertEvent,
  ChannelSender,
  OutboundMessage,
  ParsedConfig,
  SendContext,
  SendResult,
} from '../channel-kind';
import { shownEvents } from '../messages';
import { postToReceiver } from '../receiver-http';
import { isPlain, receiverUrlProblem, shapeErrors } from './config-fields';

export interface WebhookHeader {
  name: string;
  value: string;
}

export interface WebhookConfig {
  url: string;
  secret: string;
  headers: WebhookHeader[];
}

export const SECRET_MIN = 16;
export const SECRET_MAX = 256;
export const HEADERS_MAX = 10;
export const HEADER_VALUE_MAX = 4096;

/** Header values are paired with their stored counterparts by name (any case), then by order. */
export const WEBHOOK_SECRETS: SecretSchema = [
  { path: 'url' },
  { path: 'secret' },
  { path: 'headers[*].value', key: (h) => String(h.name).toLowerCase() },
];

/** Headers the service sets itself, or that would break the request: never the owner's. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);

export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('x-service-') || RESERVED.has(lower);
}

/** The body's events, exactly the spec's fields: no description or runbook, no `ended`. */
function wireEvent(e: AlertEvent): object {
  const m = e.monitor;
  return {
    type: e.type,
    at: toIso(e.at),
    monitor: m ? { id: m.id, name: m.name, slug: m.slug, group: m.group, target: m.target, url: m.url } : null,
    message: e.message,
    ...(e.duration_ms !== undefined ? { duration_ms: e.duration_ms } : {}),
    ...(e.error ? { error: { code: e.error.code, message: e.error.message } } : {}),
    // Ours, beside the spec's fields: the monitors down with this one (docs/dependencies.md).
    ...(e.affected
      ? { affected: { count: e.affected.count, names: e.affected.names, also: e.affected.also === true } }
      : {}),
  };
}

export function webhookBody(events: AlertEvent[]): string {
  return JSON.stringify({ service: '1', events: events.map(wireEvent) });
}

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>` under the secret. */
export function webhookSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

function parseWebhookConfig(raw: unknown): ParsedConfig<WebhookConfig> {
  const errors: FieldError[] = shapeErrors(raw, ['url', 'secret', 'headers']);
  if (errors.length && errors[0].field === 'config') return { ok: false, errors };
  const body = raw as Record<string, unknown>;
  const urlProblem = receiverUrlProblem(body.url);
  if (urlProblem) errors.push({ field: 'config.url', message: urlProblem });
  const secretProblem = secretProblemOf(body.secret);
  if (secretProblem) errors.push({ field: 'config.secret', message: secretProblem });
  const headers = parseHeaders(body.headers ?? [], errors);
  if (errors.length) return { ok: false, errors };
  return { ok: true, config: { url: body.url as string, secret: body.secret as string, headers } };
}

function secretProblemOf(value: unknown): string | null {
  if (isMask(value)) return null;
  if (typeof value !== 'string' || value === '')
    return `is required: ${SECRET_MIN} to ${SECRET_MAX} characters the receiver also knows`;
  if (!/^[\x21-\x7e]*$/.test(value))
    return 'must be visible ASCII characters (no spaces, line breaks or other Unicode)';
  if (value.length < SECRET_MIN) return `must be at least ${SECRET_MIN} characters (e.g. 32 random hex digits)`;
  if (value.length > SECRET_MAX) return `must be at most ${SECRET_MAX} characters`;
  return null;
}

function parseHeaders(value: unknown, errors: FieldError[]): WebhookHeader[] {
  if (!Array.isArray(value)) {
    errors.push({ field: 'config.headers', message: 'must be an array of {name, value}' });
    return [];
  }
  if (value.length > HEADERS_MAX) {
    errors.push({ field: 'config.headers', message: `must have at most ${HEADERS_MAX} headers` });
    return [];
  }
  const seen = new Map<string, number>();
  const out: WebhookHeader[] = [];
  value.forEach((h, i) => {
    const at = `config.headers[${i}]`;
    const unknown = isPlain(h) ? Object.keys(h).filter((k) => k !== 'name' && k !== 'value') : [];
    if (!isPlain(h)) return void errors.push({ field: at, message: 'must be an object {name, value}' });
    for (const k of unknown) errors.push({ field: `${at}.${k}`, message: 'unknown field (allowed: name, value)' });
    const { name, value: v } = h;
    if (typeof name !== 'string' || !isFieldName(name)) {
      errors.push({ field: `${at}.name`, message: "must be a header name: letters, digits and !#$%&'*+.^_`|~-" });
    } else if (isReservedHeader(name)) {
      errors.push({
        field: `${at}.name`,
        message: 'is set by the service (X-Service-*, Content-Type, Content-Length, Host and connection headers)',
      });
    } else if (seen.has(name.toLowerCase())) {
      errors.push({ field: `${at}.name`, message: `repeats config.headers[${seen.get(name.toLowerCase())}].name` });
    } else {
      seen.set(name.toLowerCase(), i);
    }
    if (typeof v !== 'string') {
      errors.push({ field: `${at}.value`, message: 'must be a string' });
    } else if (!isMask(v)) {
      const problem =
        v.length > HEADER_VALUE_MAX ? `must be at most ${HEADER_VALUE_MAX} characters` : fieldValueProblem(v);
      if (problem) errors.push({ field: `${at}.value`, message: problem });
    }
    if (typeof name === 'string' && typeof v === 'string') out.push({ name, value: v });
  });
  return out;
}

async function sendWebhook(config: WebhookConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  // The wall clock, not the service's Clock: the receiver compares it with its own.
  const now = systemClock.now();
  const body = webhookBody(shownEvents(message, now));
  const timestamp = Math.floor(now / 1000);
  const headers: Record<string, string> = {};
  for (const h of config.headers) headers[h.name] = h.value;
  Object.assign(headers, {
    'Content-Type': 'application/json',
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': webhookSignature(config.secret, timestamp, body),
    'X-Service-Message-Id': message.id,
  });
  const outcome = await postToReceiver(
    { url: config.url, body, headers, secrets: [config.secret, ...config.headers.map((h) => h.value)] },
    { allowPrivate: ctx.allowPrivate, ca: ctx.ca },
  );
  return { ...outcome, provider: 'webhook' };
}

export const webhookSender: ChannelSender<WebhookConfig> = {
  kind: 'webhook',
  secrets: WEBHOOK_SECRETS,
  parseConfig: parseWebhookConfig,
  send: sendWebhook,
};
