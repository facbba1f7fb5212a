/**
 * Chat channels: a chat service's incoming webhook. The URL is the secret (a Slack or Discord
 * webhook URL lets anyone post), so it is masked in answers and never shown in errors.
 *
 * config: {url, format}. `format` is `auto` (default: recognised from the URL's host, see
 * chat-shapes.ts) or one of slack, discord, teams, google-chat, chat, for a service behind a host
 * of its own (a proxy, a self-hosted Discord-compatible server).
 */
import type { FieldError } from '../../common/http/api-error';
import { systemClock } from '../../common/clock';
import type { SecretSchema } from '../../common/secrets/secret-fields';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../channel-kind';
import { CHAT_FORMATS, chatBody, ChatFormat, recogniseChat } from '../chat-shapes';
import { shownEvents } from '../messages';
import { postToReceiver } from '../receiver-http';
import { receiverUrlProblem, shapeErrors } from './config-fields';

export const CHAT_FORMAT_CHOICES = ['auto', ...CHAT_FORMATS] as const;
export type ChatFormatChoice = (typeof CHAT_FORMAT_CHOICES)[number];

export interface ChatConfig {
  url: string;
  format: ChatFormatChoice;
}

export const CHAT_SECRETS: SecretSchema = [{ path: 'url' }];

/** The format a send uses: the configured one, or the one the URL's host says. */
export function chatFormatOf(config: ChatConfig): ChatFormat {
  if (config.format !== 'auto') return config.format;
  try {
    return recogniseChat(new URL(config.url));
  } catch {
    return 'chat';
  }
}

function parseChatConfig(raw: unknown): ParsedConfig<ChatConfig> {
  const errors: FieldError[] = shapeErrors(raw, ['url', 'format']);
  if (errors.length && errors[0].field === 'config') return { ok: false, errors };
  const body = raw as Record<string, unknown>;
  const urlProblem = receiverUrlProblem(body.url);
  if (urlProblem) errors.push({ field: 'config.url', message: urlProblem });
  const format = body.format ?? 'auto';
  if (!CHAT_FORMAT_CHOICES.includes(format as ChatFormatChoice)) {
    errors.push({ field: 'config.format', message: `must be one of ${CHAT_FORMAT_CHOICES.join(', ')}` });
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, config: { url: body.url as string, format: format as ChatFormatChoice } };
}

async function sendChat(config: ChatConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const format = chatFormatOf(config);
  const events = shownEvents(message, systemClock.now());
  const body = JSON.stringify(chatBody(format, events, { publicUrl: ctx.publicUrl, test: message.test }));
  const outcome = await postToReceiver(
    { url: config.url, body, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
    { allowPrivate: ctx.allowPrivate, ca: ctx.ca },
  );
  return { ...outcome, provider: format };
}

export const chatSender: ChannelSender<ChatConfig> = {
  kind: 'chat',
  secrets: CHAT_SECRETS,
  parseConfig: parseChatConfig,
  send: sendChat,
};
