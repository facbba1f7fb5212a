/**
 * The pages a subscriber lands on (the form's answer, the confirmation link, the unsubscribe
 * link), drawn in the status page's own look (views/status/subscription.hbs in the page's
 * layout), and the words of each outcome. They work without JavaScript: the only forms post to
 * the page's own routes, so their content security policy allows `form-action 'self'`.
 */
import type { Request, Response } from 'express';
import { pickEncoding } from '../common/http/compression/accept-encoding';
import { render } from '../common/resources/views';
import { homeCsp } from '../status/public/public-answer';
import { chrome } from '../status/public/page-view';
import type { PublicStatusService } from '../status/public/public-status.service';
import { Packed } from '../common/http/compression/compression';
import type { LinkState } from './subscriber-rules';

/** The unsubscribe button posts to the page's own route; no widget on these pages. */
export const FORM_PAGE_CSP = homeCsp(true, false);

export interface PageWords {
  status: number;
  heading: string;
  message: string;
  /** The unsubscribe form's action, when the page offers the button. */
  unsubscribe?: string;
}

export const CONFIRM_WORDS: Record<LinkState, PageWords> = {
  valid: {
    status: 200,
    heading: 'Subscription confirmed',
    message:
      'You will get a mail when an incident starts and ends, and when maintenance is planned. Every mail has a link to unsubscribe.',
  },
  used: {
    status: 200,
    heading: 'Link already used',
    message: 'This confirmation link was used already: your subscription is confirmed. There is nothing more to do.',
  },
  expired: {
    status: 410,
    heading: 'Link expired',
    message:
      'This confirmation link has expired (links work for 48 hours). Subscribe again on the status page to get a new one.',
  },
  unknown: {
    status: 404,
    heading: 'Link not valid',
    message:
      'This link is not valid: it was replaced by a newer one, or the subscription was removed. Subscribe again on the status page to get a new link.',
  },
};

export const SUBSCRIBED_WORDS: PageWords = {
  status: 202,
  heading: 'Check your inbox',
  message:
    'If this address can take mail, a confirmation link is on its way. Open it within 48 hours to start getting updates.',
};

export function unsubscribeWords(token: string, known: boolean, done: boolean): PageWords {
  if (done)
    return { status: 200, heading: 'Unsubscribed', message: 'You will get no more mail from this status page.' };
  if (!known)
    return {
      status: 200,
      heading: 'Not subscribed',
      message: 'This address is not subscribed (any more): you get no mail from this status page.',
    };
  return {
    status: 200,
    heading: 'Unsubscribe?',
    message: 'Stop the mail about incidents and maintenance from this status page.',
    unsubscribe: `/status/unsubscribe/${token}`,
  };
}

/** Draws a page in the status page's look and sends it, uncached. */
export async function sendSubscriberPage(
  pages: PublicStatusService,
  req: Request,
  res: Response,
  words: PageWords,
): Promise<void> {
  const ctx = await pages.context(false);
  const html = render(
    'status/subscription',
    { ...chrome(ctx, `${words.heading} · ${ctx.settings.title}`), ...words },
    'status/layout',
  );
  const encoding = pickEncoding(req.headers['accept-encoding'] as string | undefined);
  const body = new Packed(html).body(encoding);
  res.status(words.status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Content-Security-Policy', FORM_PAGE_CSP);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
