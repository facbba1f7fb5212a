/**
 * Email channels: up to 5 addresses, sent through the server's mail providers (mail/). No secrets.
 *
 * Addresses are bare (`ops@example.com`): no display names, comments or lists, nothing a mail
 * header could be bent with. The Message-ID comes from the outbox id, so every retry of one
 * message carries the same one and a mail client shows a duplicate as one message.
 */
import type { FieldError } from '../../common/http/api-error';
import { systemClock } from '../../common/clock';
import { nameProblem } from '../../common/validation/text-rules';
import { render, renderText } from '../../common/resources/views';
import type {
  AlertEvent,
  ChannelSender,
  OutboundMessage,
  ParsedConfig,
  SendContext,
  SendResult,
} from '../channel-kind';
import { emailView } from '../email-view';
import { shownEvents } from '../messages';
import { shapeErrors } from './config-fields';

export const RECIPIENTS_MAX = 5;

export interface EmailConfig {
  to: string[];
}

/** Local part: RFC 5322 atext and dots; domain: letters (any script), digits and hyphens in dotted labels. */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uffff-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uffff-]+)*$/;
const LABEL = /^[A-Za-z0-9\u0080-\uffff]([A-Za-z0-9\u0080-\uffff-]*[A-Za-z0-9\u0080-\uffff])?$/;

/** Why a text is not one bare email address, or null. */
export function addressProblem(text: string): string | null {
  if (text.trim() === '') return 'must not be empty';
  if (nameProblem(text)) return 'must not contain control characters (line breaks, tabs, NUL, bidirectional controls)';
  if (/[,;]/.test(text)) return 'must be one address: list each address on its own';
  if (/[<>"()\s]/.test(text)) return 'must be a bare address such as ops@example.com: no display name, no spaces';
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return 'must be an address such as ops@example.com';
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!LOCAL.test(local) || local.length > 64) return 'has a part before the @ that mail servers refuse';
  if (text.length > 254 || !domain.split('.').every((label) => LABEL.test(label) && label.length <= 63)) {
    return 'has a domain after the @ that is not a host name';
  }
  return null;
}

function parseEmailConfig(raw: unknown): ParsedConfig<EmailConfig> {
  const errors: FieldError[] = shapeErrors(raw, ['to']);
  if (errors.length && errors[0].field === 'config') return { ok: false, errors };
  const to = (raw as Record<string, unknown>).to;
  if (!Array.isArray(to) || to.length === 0 || to.length > RECIPIENTS_MAX) {
    errors.push({ field: 'config.to', message: `must list 1 to ${RECIPIENTS_MAX} email addresses` });
    return { ok: false, errors };
  }
  const seen = new Map<string, number>();
  to.forEach((item, i) => {
    const field = `config.to[${i}]`;
    if (typeof item !== 'string') return void errors.push({ field, message: 'must be an email address (a string)' });
    const problem = addressProblem(item);
    if (problem) return void errors.push({ field, message: problem });
    const key = item.toLowerCase();
    if (seen.has(key)) return void errors.push({ field, message: `repeats config.to[${seen.get(key)}]` });
    seen.set(key, i);
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, config: { to: to as string[] } };
}

/** `<alert.<outbox id>@<dashboard host>>`: stable across retries, unique per message and server. */
export function messageIdFor(outboxId: string, publicUrl: string): string {
  const id = outboxId.replace(/[^A-Za-z0-9._-]/g, (c) => `=${c.charCodeAt(0).toString(16)}`);
  let host = 'farsight.invalid';
  try {
    const name = new URL(publicUrl).hostname;
    if (/^[A-Za-z0-9.-]+$/.test(name)) host = name;
  } catch {
    // keep the placeholder host
  }
  return `<alert.${id}@${host}>`;
}

/** Subject, text and HTML of an alert email. */
export function renderAlertEmail(
  message: OutboundMessage,
  events: AlertEvent[],
  publicUrl: string,
): { subject: string; text: string; html: string } {
  const view = emailView(message, events, publicUrl);
  const model = view as unknown as Record<string, unknown>;
  return {
    subject: view.subject,
    text: renderText('email/alert.text', model),
    html: render('email/alert.html', model),
  };
}

async function sendEmail(config: EmailConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const mail = renderAlertEmail(message, shownEvents(message, systemClock.now()), ctx.publicUrl);
  return ctx.mail.send({ to: config.to, ...mail, messageId: messageIdFor(message.id, ctx.publicUrl) });
}

export const emailSender: ChannelSender<EmailConfig> = {
  kind: 'email',
  secrets: [],
  parseConfig: parseEmailConfig,
  send: sendEmail,
};
