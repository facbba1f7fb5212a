/**
 * The mails status page subscribers get: the confirmation, an incident opened, an incident
 * resolved, maintenance announced. View models the templates (views/email/subscriber.html.hbs
 * and subscriber.text.hbs) only format; pure but for the rendering at the end.
 *
 * They say only what the status page says: public names, times and durations, never a target,
 * an error or a monitor id (spec "Public status JSON"). Every notice carries its unsubscribe
 * link in the body and in the List-Unsubscribe headers (RFC 8058).
 */
import { formatDuration, formatWhen } from '../common/time';
import { render, renderText } from '../common/resources/views';

export interface SubscriberMailFact {
  label: string;
  value: string;
}

export interface SubscriberMailView {
  subject: string;
  heading: string;
  /** Colours of the heading's chip: every text sits on a background of its own (contrast ≥ 4.5:1). */
  tone: 'bad' | 'good' | 'info';
  chip: string;
  intro: string[];
  facts: SubscriberMailFact[];
  action: { label: string; url: string } | null;
  outro: string[];
  pageTitle: string;
  pageUrl: string;
  /** Null in the confirmation (nobody is subscribed yet). */
  unsubscribeUrl: string | null;
}

/** What a notice row holds (subscriber_notices.payload), as written when the change committed. */
export type NoticePayload =
  | { kind: 'opened'; service: string; started_at: number }
  | { kind: 'resolved'; service: string; started_at: number; ended_at: number }
  | {
      kind: 'maintenance';
      title: string;
      description: string | null;
      starts_at: number;
      ends_at: number | null;
      services: string[];
    };

export interface MailContext {
  /** The status page's title. */
  pageTitle: string;
  /** The service's public address, without a final slash. */
  origin: string;
}

const SUBJECT_MAX = 120;
const DESCRIPTION_MAX = 2000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One line for a subject: no line breaks (a header), at most SUBJECT_MAX characters. */
function subjectLine(text: string): string {
  return clip(text.replace(/[\r\n\t]+/g, ' '), SUBJECT_MAX);
}

export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}/status/unsubscribe/${token}`;
}

export function confirmUrl(origin: string, token: string): string {
  return `${origin}/status/subscription/${token}`;
}

export function confirmMail(ctx: MailContext, token: string, expiresAt: number): SubscriberMailView {
  return {
    subject: subjectLine(`Confirm your subscription to ${ctx.pageTitle}`),
    heading: 'Confirm your subscription',
    tone: 'info',
    chip: 'Subscription',
    intro: [
      `Someone, probably you, asked to get mail from the status page ${ctx.pageTitle} when an incident starts and ends, and when maintenance is planned.`,
      `The link below confirms it. It works once, until ${formatWhen(expiresAt)}.`,
    ],
    facts: [],
    action: { label: 'Confirm my subscription', url: confirmUrl(ctx.origin, token) },
    outro: ['If you did not ask for this, ignore this mail: without the confirmation you get nothing more.'],
    pageTitle: ctx.pageTitle,
    pageUrl: `${ctx.origin}/status`,
    unsubscribeUrl: null,
  };
}

export function noticeMail(ctx: MailContext, n: NoticePayload, unsubToken: string): SubscriberMailView {
  const base = {
    pageTitle: ctx.pageTitle,
    pageUrl: `${ctx.origin}/status`,
    unsubscribeUrl: unsubscribeUrl(ctx.origin, unsubToken),
    outro: [],
  };
  if (n.kind === 'opened')
    return {
      ...base,
      subject: subjectLine(`${n.service} is down`),
      heading: `${n.service} is down`,
      tone: 'bad',
      chip: 'Outage',
      intro: [`${n.service} stopped answering. We will mail you again when it is back.`],
      facts: [{ label: 'Since', value: formatWhen(n.started_at) }],
      action: { label: 'See the status page', url: `${ctx.origin}/status` },
    };
  if (n.kind === 'resolved')
    return {
      ...base,
      subject: subjectLine(`${n.service} is back`),
      heading: `${n.service} is back`,
      tone: 'good',
      chip: 'Resolved',
      intro: [`${n.service} answers again.`],
      facts: [
        { label: 'Down from', value: formatWhen(n.started_at) },
        { label: 'Back at', value: formatWhen(n.ended_at) },
        { label: 'Down for', value: formatDuration(n.ended_at - n.started_at) },
      ],
      action: { label: 'See the status page', url: `${ctx.origin}/status` },
    };
  return {
    ...base,
    subject: subjectLine(`Planned maintenance: ${n.title}`),
    heading: `Planned maintenance: ${n.title}`,
    tone: 'info',
    chip: 'Maintenance',
    intro: n.description ? clip(n.description, DESCRIPTION_MAX).split(/\n{2,}/) : [],
    facts: [
      { label: 'Starts', value: formatWhen(n.starts_at) },
      { label: 'Ends', value: n.ends_at === null ? 'when the work is done' : formatWhen(n.ends_at) },
      ...(n.services.length ? [{ label: 'Services', value: n.services.join(', ') }] : []),
    ],
    action: { label: 'See the status page', url: `${ctx.origin}/status` },
  };
}

/** Light colours of the chip; dark ones are in the template's prefers-color-scheme block by tone. */
const CHIP: Record<SubscriberMailView['tone'], { bg: string; fg: string }> = {
  bad: { bg: '#fee4e2', fg: '#912018' },
  good: { bg: '#d1fadf', fg: '#05603a' },
  info: { bg: '#eaecf0', fg: '#344054' },
};

export interface RenderedSubscriberMail {
  subject: string;
  text: string;
  html: string;
  /** RFC 8058: one-click unsubscribe by a POST to the link; none on the confirmation. */
  headers: Record<string, string>;
}

export function renderSubscriberMail(view: SubscriberMailView): RenderedSubscriberMail {
  const model = { ...view, chipColors: CHIP[view.tone] } as unknown as Record<string, unknown>;
  return {
    subject: view.subject,
    text: renderText('email/subscriber.text', model),
    html: render('email/subscriber.html', model),
    headers: view.unsubscribeUrl
      ? { 'List-Unsubscribe': `<${view.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
      : {},
  };
}
