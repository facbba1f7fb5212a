/**
 * Apprise (https://github.com/caronc/apprise-api#api-details): POST to an Apprise API server's
 * notify URL (`http://apprise:8000/notify/<key>`, a stored configuration) with {title, body,
 * type, format, tag?}. One kind for the 100+ services Apprise knows (its URLs live on the Apprise
 * server). type: failure for downs and reminders, success for ups, warning for warnings, info
 * otherwise.
 *
 * config: {url (secret: the key in it lets anyone notify), tags (optional: Apprise's tag
 * expression, "a,b" is a OR b, "a b" a AND b)}.
 */
import { systemClock } from '../../../common/clock';
import { urlSecretParts } from '../../../common/secrets/secrets';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { eventWords, shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, textField, urlField } from './fields';
import { alertText, PLAIN } from './text';

export interface AppriseConfig {
  url: string;
  tags: string | null;
}

export const APPRISE_TAGS = /^[A-Za-z0-9_.-]+([ ,]+[A-Za-z0-9_.-]+)*$/;
const BUDGET = 4000;
const TYPE = { bad: 'failure', warn: 'warning', good: 'success', info: 'info' } as const;

function parseApprise(raw: unknown): ParsedConfig<AppriseConfig> {
  const open = openConfig(raw, ['url', 'tags']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const url = urlField(body, 'url', errors);
  const tags =
    typeof body.tags === 'string' && body.tags.length > 200
      ? (errors.push({ field: 'config.tags', message: 'must be at most 200 characters' }), null)
      : textField(
          body,
          'tags',
          errors,
          APPRISE_TAGS,
          'tags: words of letters, digits, _ . -, separated by commas (any of) or spaces (all of)',
          true,
        );
  return parsed(errors, { url, tags });
}

export function appriseBody(config: AppriseConfig, message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const t = alertText(message, events, PLAIN, {
    publicUrl,
    test: message.test,
    budget: BUDGET,
    titled: true,
    emoji: events.length > 1,
  });
  const tones = events.map((e) => eventWords(e, message.test).tone);
  const tone = (['bad', 'warn', 'good'] as const).find((x) => tones.includes(x)) ?? 'info';
  return {
    title: t.title,
    body: t.text,
    type: TYPE[tone],
    format: 'text',
    ...(config.tags ? { tag: config.tags } : {}),
  };
}

async function sendApprise(config: AppriseConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(appriseBody(config, message, systemClock.now(), ctx.publicUrl));
  return callService(
    'apprise',
    {
      url: config.url,
      body,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      secrets: urlSecretParts(config.url),
    },
    ctx,
  );
}

export const appriseSender: ChannelSender<AppriseConfig> = {
  kind: 'apprise',
  secrets: [{ path: 'url' }],
  parseConfig: parseApprise,
  send: sendApprise,
};
