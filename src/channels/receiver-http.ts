/**
 * One POST to a remote receiver (chat services, webhooks), made so that no receiver can hurt the
 * service: one deadline covers the whole exchange (a receiver that hangs or trickles costs at most
 * that), at most 64 KB of an answer is read before the socket is destroyed, redirects are never
 * followed, TLS is verified, and private addresses are refused when they are not allowed, judged
 * on the address actually connected to (probes/checkers/connect-address.ts).
 *
 * What it says about a failure is short and never holds the URL's path or query (a Slack URL's
 * path IS its secret) nor any value the caller names as secret: only scheme://host[:port].
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import { maskSecretsIn, quoteMasked, urlSecretParts } from '../common/secrets/secrets';
import { VERSION } from '../common/version';
import { bareHost, checkAddress, guardedLookup } from '../probes/checkers/connect-address';
import { describeSocketError } from '../probes/checkers/net-errors';
import { clip } from './messages';

export const RECEIVER_TIMEOUT_MS = 10_000;
/** The most of an answer ever read; past it the socket is destroyed. */
export const ANSWER_LIMIT = 64 * 1024;
/** SendResult.error is at most this long. */
export const ERROR_MAX = 300;
/** The part of a refusing receiver's answer quoted in the error ("Unknown Webhook", "no_service"). */
const QUOTE_MAX = 100;
/** The shortest value masked in an error. */
const SECRET_MIN = 6;
export const USER_AGENT = `Farsight/${VERSION}`;

export interface ReceiverPost {
  url: string;
  /** POST unless the service's API says otherwise (Matrix sends with PUT). */
  method?: 'POST' | 'PUT';
  /**
   * Read an accepted answer too (at most ANSWER_LIMIT), for services that answer 200 with an
   * error inside (Telegram `{"ok":false}`, Pushover `{"status":0}`).
   */
  readAnswer?: boolean;
  body: string;
  headers: Record<string, string>;
  /** Values that must never show in an error, besides the URL's path and query (signing secret, header values). */
  secrets?: readonly string[];
}

export interface ReceiverOptions {
  allowPrivate: boolean;
  /** Extra CA certificate (PEM) trusted besides the system roots: tests only. */
  ca?: string;
  /** The deadline of the whole exchange; RECEIVER_TIMEOUT_MS unless a test asks for less. */
  timeoutMs?: number;
}

export interface ReceiverOutcome {
  ok: boolean;
  /** The HTTP status, when an answer came. */
  status: number | null;
  error: string | null;
  /** Retrying cannot help: a 4xx other than 408/429, a redirect, a refused private target, a bad URL. */
  permanent: boolean;
  /**
   * The answer's text as received (at most ANSWER_LIMIT, unmasked): for the sender's own reading
   * of the service's error body only; it never goes to a log or an answer as it is.
   */
  answer?: string;
  /** The answer's Retry-After header, as sent (for senders that read answers). */
  retryAfter?: string;
}

type Stage = 'connecting' | 'waiting' | 'reading';
const STAGE_TEXT: Record<Stage, string> = {
  connecting: 'while connecting',
  waiting: 'waiting for the answer',
  reading: 'while reading the answer',
};

/** Statuses worth retrying besides 5xx: request timeout, too early, too many requests. */
const RETRY_4XX = new Set([408, 425, 429]);

/** True when a status means the receiver took the message. */
export function isAccepted(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Whether a failed answer may succeed later: 408, 425, 429 and 5xx; never a redirect or another 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || RETRY_4XX.has(status);
}

/** `https://hooks.slack.com`, `http://[::1]:8080`: what an error may say about where it went. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * Sends one POST and says how it went. Never rejects: every failure becomes an outcome, so
 * callers can run many sends side by side without one's failure touching another.
 */
export async function postToReceiver(post: ReceiverPost, options: ReceiverOptions): Promise<ReceiverOutcome> {
  let url: URL;
  try {
    url = new URL(post.url);
  } catch {
    return failed(null, 'the receiver URL is not a valid URL', true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return failed(null, 'the receiver URL must start with http:// or https://', true);
  }
  const where = originOf(url);
  // Shorter values (a header set to `1`) would mask ordinary words and numbers of the error.
  const secrets = [...urlSecretParts(url.href), ...(post.secrets ?? [])].filter((v) => v.length >= SECRET_MIN);
  const host = bareHost(url.hostname);
  if (isIP(host)) {
    const problem = checkAddress(host, 'auto', options.allowPrivate);
    if (problem) return failed(null, `${where}: ${problem.message}`, true);
  }
  return exchange(url, host, post, options, where, secrets);
}

function exchange(
  url: URL,
  host: string,
  post: ReceiverPost,
  options: ReceiverOptions,
  where: string,
  secrets: readonly string[],
): Promise<ReceiverOutcome> {
  const scrub = (text: string): string => maskSecretsIn(text, secrets);
  const timeoutMs = options.timeoutMs ?? RECEIVER_TIMEOUT_MS;
  const secure = url.protocol === 'https:';
  const body = Buffer.from(post.body, 'utf8');
  return new Promise((resolve) => {
    let stage: Stage = 'connecting';
    let status: number | null = null;
    let settled = false;
    let req: http.ClientRequest | null = null;
    /** Once an answer is being read: ends it with what came so far (a deadline, a dropped connection). */
    let cutShort: (() => void) | null = null;
    const finish = (outcome: ReceiverOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Destroyed, not ended: nothing more is read from this receiver, whatever it still sends.
      req?.destroy();
      resolve(outcome);
    };
    /** `quote`: the receiver's words, already masked (quoteMasked). */
    let retryAfter: string | undefined;
    const answered = (quote: string, answer?: string): void => {
      const code = status as number;
      const text = `${where}: answered ${code} ${http.STATUS_CODES[code] ?? ''}`.trimEnd();
      const why = code >= 300 && code < 400 ? `${text} (redirects are not followed: use the final URL)` : text;
      const outcome = failed(code, quote ? `${why}: ${quote}` : why, !isRetryableStatus(code));
      // Only to a sender that asked to read answers: the others spread the outcome into their result.
      finish(post.readAnswer ? { ...outcome, answer, ...(retryAfter ? { retryAfter } : {}) } : outcome);
    };
    const timer = setTimeout(() => {
      // An answer whose status is known is judged by it, even if its body never ends.
      if (cutShort) return cutShort();
      if (status !== null) return answered('');
      finish(failed(null, `${where}: timed out after ${seconds(timeoutMs)} ${STAGE_TEXT[stage]}`, false));
    }, timeoutMs);

    const request: https.RequestOptions = {
      method: post.method ?? 'POST',
      host,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: mergeHeaders({ 'User-Agent': USER_AGENT }, post.headers, {
        Host: url.host,
        'Content-Length': String(body.length),
      }),
      agent: false,
      lookup: guardedLookup('auto', options.allowPrivate),
    };
    if (secure) {
      Object.assign(request, {
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: true,
        ...trust(options.ca),
      });
    }
    try {
      req = (secure ? https : http).request(request);
    } catch (err) {
      // Node checks header names and values here; its message names the header, never the value.
      return finish(failed(null, `${where}: request not sent (${scrub((err as Error).message)})`, true));
    }
    req.on('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        stage = 'waiting';
      });
    });
    req.on('error', (err) => {
      if (cutShort) return cutShort();
      if (status !== null) return answered('');
      const problem = describeSocketError(err, url.host);
      const why =
        (err as { code?: string }).code === 'ERR_TLS_CERT_ALTNAME_INVALID'
          ? `certificate does not match ${host}`
          : problem.message;
      finish(failed(null, `${where}: ${scrub(why)}`, problem.code === 'private_target'));
    });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      const header = res.headers['retry-after'];
      retryAfter = typeof header === 'string' ? header.slice(0, 64) : undefined;
      stage = 'reading';
      const accepted = isAccepted(status);
      if (accepted && !post.readAnswer) return finish({ ok: true, status, error: null, permanent: false });
      // A refusal's first words often say why ("Unknown Webhook", "invalid_token"): read a little.
      const chunks: Buffer[] = [];
      let size = 0;
      // The receiver's words may quote what we sent (an echo of the URL or the headers): masked
      // before they are cut, and where the answer was cut off (the read limit, a dropped
      // connection) a secret's first characters at its end are masked too.
      const text = (): string => Buffer.concat(chunks).toString('utf8');
      // An accepted answer read for its body: judged by the sender; one cut short is still accepted.
      const done = (cut: boolean): void =>
        accepted
          ? finish({ ok: true, status, error: null, permanent: false, answer: text() })
          : answered(quoted(cut), text());
      cutShort = () => done(true);
      const quoted = (cut: boolean): string =>
        quoteMasked(
          Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\uFFFD/g, ''),
          secrets,
          QUOTE_MAX,
          cut,
        );
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk.subarray(0, ANSWER_LIMIT - size));
        size += chunk.length;
        if (size >= ANSWER_LIMIT) done(true);
      });
      res.on('end', () => done(false));
      res.on('error', () => done(true));
      res.on('close', () => done(true));
    });
    req.end(body);
  });
}

/** Later layers win; names compare without case, so a header is never sent twice. */
function mergeHeaders(...layers: Record<string, string>[]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const layer of layers)
    for (const [name, value] of Object.entries(layer)) merged.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(merged.values());
}

function failed(status: number | null, error: string, permanent: boolean): ReceiverOutcome {
  return { ok: false, status, error: clip(error, ERROR_MAX), permanent };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

// Building a secure context parses every root certificate: once per extra CA, not per send.
const contexts = new Map<string, tls.SecureContext>();

function trust(ca: string | undefined): { secureContext?: tls.SecureContext } {
  if (!ca) return {};
  let context = contexts.get(ca);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    contexts.set(ca, context);
  }
  return { secureContext: context };
}
