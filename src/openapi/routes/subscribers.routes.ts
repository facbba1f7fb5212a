/**
 * Status page subscribers (section 5 of the interface extensions; docs/subscribers.md): the public
 * subscribe route and the pages of the form and the links, and the owner's list.
 */
import {
  bool,
  int,
  list,
  nullable,
  obj,
  oneOfValues,
  page,
  pageQuery,
  str,
  time,
} from '../../common/validation/common.schema';
import { EMAIL_MAX } from '../../subscribers/subscriber-rules';
import type { Answer, RouteDoc } from '../route-doc';

const pub = { public: true } as const;
const admin = { scope: 'admin' } as const;
const extra = 'section 5 of the interface extensions (subscribers: the status page by mail; docs/subscribers.md).';
const html = (description: string): Answer => ({ description, type: 'text/html', schema: str() });
const TOKEN = { token: { description: 'the token of the mailed link (base64url, 43 characters)' } };
const FORM = (fields: Record<string, ReturnType<typeof str>>, description: string) => ({
  type: 'application/x-www-form-urlencoded',
  schema: obj(fields, { required: [] }),
  description,
});

export const SUBSCRIBER = obj({
  id: int(1),
  email: str({ description: 'lower case' }),
  state: oneOfValues(['pending', 'confirmed']),
  created_at: time(),
  confirmed_at: nullable(time()),
});

/** An item of the export's `subscribers` (only with `?secrets=1`) and of an import's. */
export const SUBSCRIBER_EXPORT = obj(
  {
    email: str({ maxLength: EMAIL_MAX }),
    state: oneOfValues(['pending', 'confirmed']),
    created_at: time(),
    confirmed_at: nullable(time()),
  },
  { required: ['email', 'state'] },
);

export const SUBSCRIBER_ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/public/subscribe',
    id: 'subscribe',
    tag: 'Public',
    summary: "Subscribe to the status page's incidents and maintenance by mail",
    description:
      'Answers 202 whatever the address (known, pending, confirmed or new: the answer never tells); a new or pending address is mailed a single-use confirmation link valid 48 hours. Throttled: 3 an hour per address, 10 an hour per client network (IPv4 /24, IPv6 /64): 429 with Retry-After. 403 while the page takes no subscribers (setting `subscribers`) or when the bot challenge is refused; 404 while the page is not published.',
    access: pub,
    body: {
      schema: obj(
        {
          email: str({
            maxLength: EMAIL_MAX,
            description: 'an address; line breaks and control characters are refused',
          }),
          challenge: str({ description: 'the bot challenge token, when the server has one (`GET /auth/state`)' }),
        },
        { required: ['email'] },
      ),
    },
    answers: {
      202: {
        description: 'taken',
        schema: obj({ accepted: bool({ const: true }), message: str() }),
      },
      429: {
        description: 'too many requests from this address or network',
        schema: { $ref: '#/components/schemas/Error' },
        headers: { 'Retry-After': { description: 'seconds to wait', schema: int(0) } },
      },
    },
    errors: [404, 503],
    extra,
  },
  {
    method: 'post',
    path: '/status/subscribe',
    id: 'subscribeForm',
    tag: 'Public',
    summary: "The status page's subscribe form (works without JavaScript)",
    description:
      'The same as POST /api/public/subscribe, answered with a page in the status page\'s look: "Check your inbox" (202) or what was wrong (400, 403, 404, 422, 429). The form body is at most 4 KB.',
    access: pub,
    body: FORM({ email: str(), 'cf-turnstile-response': str() }, "the form: `email`, and the challenge widget's token"),
    answers: { 202: html('check your inbox'), 422: html('what was wrong'), 429: html('too many requests') },
    errors: [400, 404],
    extra,
  },
  {
    method: 'get',
    path: '/status/subscription/{token}',
    id: 'confirmSubscription',
    tag: 'Public',
    summary: 'The confirmation link: confirms the subscription (once)',
    access: pub,
    params: TOKEN,
    answers: {
      200: html('confirmed now, or "already used" (confirmed before)'),
      404: html('not valid: replaced by a newer link, removed, or never issued'),
      410: html('expired (48 hours)'),
    },
    extra,
  },
  {
    method: 'get',
    path: '/status/unsubscribe/{token}',
    id: 'unsubscribePage',
    tag: 'Public',
    summary: 'The unsubscribe link: a page with a button (a GET never unsubscribes)',
    access: pub,
    params: TOKEN,
    answers: { 200: html('the button, or "not subscribed"') },
    extra,
  },
  {
    method: 'post',
    path: '/status/unsubscribe/{token}',
    id: 'unsubscribe',
    tag: 'Public',
    summary: "Unsubscribe: the one-click POST of RFC 8058, or the page's button",
    description:
      "A mail client's one-click POST (`List-Unsubscribe=One-Click`) gets `unsubscribed` or `not subscribed` as plain text; the page's button (`from=page`) gets a page.",
    access: pub,
    params: TOKEN,
    body: {
      ...FORM({ 'List-Unsubscribe': str(), from: str() }, 'RFC 8058 one-click, or `from=page`'),
      required: false,
    },
    answers: {
      200: {
        description: '`unsubscribed` or `not subscribed` (one click), or a page (the button)',
        type: 'text/plain',
        schema: str(),
      },
    },
    errors: [400],
    extra,
  },
  {
    method: 'get',
    path: '/api/v1/subscribers',
    id: 'listSubscribers',
    tag: 'Status page',
    summary: "The status page's subscribers, newest first",
    access: admin,
    query: pageQuery(),
    answers: { 200: { description: 'subscribers', schema: page(SUBSCRIBER, int(1)) } },
    extra,
  },
  {
    method: 'delete',
    path: '/api/v1/subscribers/{id}',
    id: 'deleteSubscriber',
    tag: 'Status page',
    summary: 'Remove a subscriber (and any mail still queued for them)',
    access: admin,
    params: { id: { description: "the subscriber's id" } },
    answers: { 204: { description: 'removed' } },
    errors: [404],
    extra,
  },
];

export const SUBSCRIBERS_EXPORT_SCHEMA = list(SUBSCRIBER_EXPORT, {
  description: 'only with `?secrets=1` (addresses are personal data); an import adds the confirmed ones not stored yet',
});
