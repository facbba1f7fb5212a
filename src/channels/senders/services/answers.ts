/**
 * What a service's answer means: the permanent-or-retryable table of receiver-http.ts (2xx taken,
 * 408/425/429 and 5xx retried, redirects and other 4xx permanent), extended with each service's
 * documented answers: a 200 that carries an error (Telegram `{"ok":false}`, Pushover
 * `{"status":0}`), a rate limit that says how long to wait (Telegram `parameters.retry_after`,
 * Matrix `retry_after_ms`), an Apprise server with nothing to notify. The service's own words
 * are quoted (masked, short); an HTML error page (a proxy's) is named by its <title>. Pure.
 */
import * as http from 'node:http';
import { quoteMasked } from '../../../common/secrets/secrets';
import type { SendContext, SendResult } from '../../channel-kind';
import { clip } from '../../messages';
import {
  ANSWER_LIMIT,
  ERROR_MAX,
  isRetryableStatus,
  originOf,
  postToReceiver,
  ReceiverOutcome,
} from '../../receiver-http';

export type ServiceName =
  'ntfy' | 'gotify' | 'telegram' | 'pushover' | 'matrix' | 'pagerduty' | 'home-assistant' | 'apprise';

/** A service's reading of one answer: null when the status alone decides. */
export interface Reading {
  /** False on a 2xx that carries an error. */
  ok?: boolean;
  /** The service's own words about why. */
  words?: string;
  /** Overrides the status's permanence (Matrix M_LIMIT_EXCEEDED on any status is retried). */
  permanent?: boolean;
  retryAfterMs?: number;
}

const QUOTE_MAX = 160;
/** The longest wait a service may ask for that is taken as it is (a day: dispatcher.service.ts caps it too). */
const WAIT_MAX_MS = 86_400_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const waitMs = (v: unknown, unit: number): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(v * unit, WAIT_MAX_MS) : undefined;

function parseJson(answer: string | undefined): unknown {
  if (!answer) return null;
  try {
    return JSON.parse(answer) as unknown;
  } catch {
    return null;
  }
}

/** Each service's answers, from its API documentation (the page is named at each). */
const READERS: Record<ServiceName, (status: number, body: unknown) => Reading | null> = {
  // https://docs.ntfy.sh/publish/#limitations : errors are {"code":42901,"http":429,"error":"…","link":"…"}.
  ntfy: (_s, b) => (isObject(b) ? { words: text(b.error) } : null),
  // https://gotify.net/api-docs : errors are {"error":"Unauthorized","errorCode":401,"errorDescription":"…"}.
  gotify: (_s, b) =>
    isObject(b) ? { words: [text(b.error), text(b.errorDescription)].filter(Boolean).join(': ') } : null,
  // https://core.telegram.org/bots/api#making-requests : every answer is {"ok":…}; an error has
  // error_code and description, a flood limit parameters.retry_after (seconds).
  telegram: (status, b) => {
    if (!isObject(b) || b.ok !== true) {
      if (!isObject(b))
        return status < 300 ? { ok: false, words: 'the answer is not Telegram’s', permanent: false } : null;
      const code = typeof b.error_code === 'number' ? b.error_code : status;
      const p = isObject(b.parameters) ? b.parameters : {};
      const migrated =
        p.migrate_to_chat_id !== undefined
          ? ` (the group is now chat ${String(p.migrate_to_chat_id)}: update chat_id)`
          : '';
      return {
        ok: false,
        words: `${text(b.description) ?? 'refused'}${migrated}`,
        permanent: !isRetryableStatus(code),
        retryAfterMs: waitMs(p.retry_after, 1000),
      };
    }
    return { ok: true };
  },
  // https://pushover.net/api#response : 200 with {"status":1}; invalid input is a 4xx with
  // {"status":0,"errors":[…]} (permanent); 429 when the application is over its quota.
  pushover: (status, b) => {
    if (!isObject(b))
      return status < 300 ? { ok: false, words: 'the answer is not Pushover’s', permanent: false } : null;
    const words = strings(b.errors).join('; ') || undefined;
    if (b.status === 1 && status < 300) return { ok: true };
    return { ok: false, words, ...(status < 300 ? { permanent: true } : {}) };
  },
  // https://spec.matrix.org/v1.11/client-server-api/#standard-error-response : {"errcode","error"};
  // M_LIMIT_EXCEEDED carries retry_after_ms (rate limiting section).
  matrix: (_s, b) => {
    if (!isObject(b)) return null;
    const code = text(b.errcode);
    const words = [code, text(b.error)].filter(Boolean).join(': ') || undefined;
    if (code === 'M_LIMIT_EXCEEDED') return { words, permanent: false, retryAfterMs: waitMs(b.retry_after_ms, 1) };
    return { words };
  },
  // https://developer.pagerduty.com/docs/events-api-v2/overview/#response-codes--retry-logic :
  // 202 taken; 400 {"status":"invalid event","message","errors":[…]} permanent; 429 and 5xx retried.
  pagerduty: (_s, b) =>
    isObject(b) ? { words: [text(b.message), ...strings(b.errors)].filter(Boolean).join(': ') || undefined } : null,
  // https://developers.home-assistant.io/docs/api/rest/ : errors are {"message":"…"} (or text).
  'home-assistant': (_s, b) => (isObject(b) ? { words: text(b.message) } : null),
  // https://github.com/caronc/apprise-api#api-details : 200 sent; 204 nothing to notify (no
  // configuration under the key, or no URL with the tags); 424 one or more services failed.
  apprise: (status) =>
    status === 204
      ? {
          ok: false,
          words: 'nothing was notified: no configuration under this key, or no URL with these tags',
          permanent: true,
        }
      : status === 424
        ? { words: 'one or more of the services behind it failed', permanent: false }
        : null,
};

/** An HTML page's <title>, or that it was one: a proxy's error page says little else worth quoting. */
export function htmlWords(answer: string): string | null {
  if (!/^\s*<(!doctype|html|head|body|\?xml)/i.test(answer)) return null;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(answer)?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? `an HTML page: "${title}"` : 'an HTML page';
}

/**
 * The SendResult of one exchange with a service. `secrets`: every value that must never show
 * (tokens, keys), masked in the service's words before they are cut.
 */
export function judgeAnswer(
  service: ServiceName,
  outcome: ReceiverOutcome,
  secrets: readonly string[],
  where: string = service,
): Omit<SendResult, 'provider'> {
  const status = outcome.status;
  // No answer (refused, timed out, a private target) or a redirect: as receiver-http said it.
  if (status === null || (status >= 300 && status < 400)) return pick(outcome);
  const body = parseJson(outcome.answer);
  const reading = READERS[service](status, body) ?? {};
  const ok = reading.ok ?? outcome.ok;
  if (ok) return { ok: true, status, error: null, permanent: false };
  const permanent = reading.permanent ?? !isRetryableStatus(status);
  const raw = reading.words ?? htmlWords(outcome.answer ?? '') ?? (outcome.answer ?? '').trim();
  const words = quoteMasked(
    raw.replace(/\s+/g, ' '),
    secrets,
    QUOTE_MAX,
    (outcome.answer?.length ?? 0) >= ANSWER_LIMIT,
  );
  const head = `${where}: answered ${status} ${http.STATUS_CODES[status] ?? ''}`.trimEnd();
  // The body's own wait (Telegram, Matrix) first; else the header's, for a refusal worth retrying.
  const wait = reading.retryAfterMs ?? (permanent ? undefined : retryAfterMs(outcome.retryAfter));
  const error = clip(words ? `${head}: ${words}` : head, ERROR_MAX);
  return {
    ok: false,
    status,
    error,
    permanent,
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

/**
 * The wait a Retry-After header asks for (RFC 9110 section 10.2.3), in its delay-seconds form: ntfy,
 * PagerDuty and Gotify's proxies send it with a 429 or 503. The HTTP-date form, rare from APIs,
 * is left to the usual back-off; so is anything that is not a whole number of seconds.
 */
export function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined || !/^\s*\d{1,9}\s*$/.test(header)) return undefined;
  return Number(header.trim()) * 1000;
}

function pick(o: ReceiverOutcome): Omit<SendResult, 'provider'> {
  return { ok: o.ok, status: o.status, error: o.error, permanent: o.permanent };
}

/** One call to a service's API: sent safely (receiver-http.ts), its answer read and judged. */
export async function callService(
  service: ServiceName,
  call: {
    url: string;
    body: string;
    headers: Record<string, string>;
    method?: 'POST' | 'PUT';
    secrets: readonly string[];
  },
  ctx: SendContext,
): Promise<SendResult> {
  const secrets = call.secrets.filter((s) => s !== '');
  const outcome = await postToReceiver(
    { url: call.url, body: call.body, headers: call.headers, method: call.method, readAnswer: true, secrets },
    { allowPrivate: ctx.allowPrivate, ca: ctx.ca, timeoutMs: ctx.timeoutMs },
  );
  let where: string = service;
  try {
    where = originOf(new URL(call.url));
  } catch {
    // A bad URL: postToReceiver said so already.
  }
  return { ...judgeAnswer(service, outcome, secrets, where), provider: service };
}
