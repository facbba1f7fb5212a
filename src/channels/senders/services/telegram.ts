/**
 * Telegram (https://core.telegram.org/bots/api#sendmessage): POST <api_base>/bot<token>/sendMessage
 * with {chat_id, text, parse_mode: "HTML", link_preview_options: {is_disabled: true}}. Text in
 * Telegram's HTML (only <b>, <a href> used; &, <, > escaped: #html-style) and at most 4,096
 * characters. The answer is always {"ok": …}: a 200 without ok:true is a failure, a 429 says
 * parameters.retry_after (answers.ts). The bot token is in the path: it is masked in every error.
 *
 * config: {bot_token (secret), chat_id, api_base (default https://api.telegram.org, for a local
 * Bot API server)}.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { shownEvents } from '../../messages';
import { callService } from './answers';
import { Fields, notAnObject, openConfig, parsed, serverField, tokenField } from './fields';
import { alertText, HTML } from './text';

export interface TelegramConfig {
  bot_token: string;
  chat_id: string;
  api_base: string;
}

export const TELEGRAM_API = 'https://api.telegram.org';
/** Bot tokens as @BotFather gives them: the bot's id, a colon, 35 letters, digits, _ or - (#authorizing-your-bot). */
export const TELEGRAM_TOKEN = /^\d{5,16}:[A-Za-z0-9_-]{30,64}$/;
/** A chat's numeric id (groups and channels are negative) or a public channel's @username. */
export const TELEGRAM_CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
const LIMIT = 4096;

function parseTelegram(raw: unknown): ParsedConfig<TelegramConfig> {
  const open = openConfig(raw, ['bot_token', 'chat_id', 'api_base']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const token = tokenField(
    body,
    'bot_token',
    errors,
    TELEGRAM_TOKEN,
    'a bot token as @BotFather gives it: 123456789:AA… (digits, a colon, then 35 characters)',
  );
  const chat = chatId(body, errors);
  const apiBase = serverField(body, 'api_base', errors, TELEGRAM_API);
  return parsed(errors, { bot_token: token ?? '', chat_id: chat, api_base: apiBase });
}

/** Numbers are taken as numbers too (JSON clients send -1001234567890 bare); stored as text. */
function chatId(body: Fields, errors: { field: string; message: string }[]): string {
  const v =
    typeof body.chat_id === 'number' && Number.isSafeInteger(body.chat_id) ? String(body.chat_id) : body.chat_id;
  if (typeof v !== 'string' || !TELEGRAM_CHAT.test(v)) {
    errors.push({
      field: 'config.chat_id',
      message: 'must be a chat id (digits, negative for groups: -1001234567890) or a public channel’s @username',
    });
    return '';
  }
  return v;
}

export function telegramBody(config: TelegramConfig, message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const t = alertText(message, events, HTML, { publicUrl, test: message.test, budget: LIMIT, emoji: true });
  return {
    chat_id: config.chat_id,
    text: t.text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    // The older name of the same switch, for Bot API servers before 7.0.
    disable_web_page_preview: true,
  };
}

async function sendTelegram(config: TelegramConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(telegramBody(config, message, systemClock.now(), ctx.publicUrl));
  return callService(
    'telegram',
    {
      url: `${config.api_base}/bot${config.bot_token}/sendMessage`,
      body,
      headers: { 'Content-Type': 'application/json' },
      secrets: [config.bot_token, config.bot_token.split(':')[1] ?? ''],
    },
    ctx,
  );
}

export const telegramSender: ChannelSender<TelegramConfig> = {
  kind: 'telegram',
  secrets: [{ path: 'bot_token' }],
  destination: ['api_base'],
  parseConfig: parseTelegram,
  send: sendTelegram,
};
