/**
 * The mail path: the providers of FARSIGHT_SMTP and FARSIGHT_SMTP_FALLBACK, in that order, over
 * nodemailer. A message goes through the first provider that takes it; the result names it (its
 * host, never its credentials) or, when none did, says why each failed.
 *
 * 1. One connection per message (no pool): alerts are few, and an idle pooled connection would
 *    only be dropped by the server and fail the next send.
 * 2. Each provider gets its own deadline for the whole exchange besides nodemailer's connection,
 *    greeting and idle timeouts, so a trickling server costs at most that much before the fallback.
 * 3. Permanent only when every provider refused the message for good (an SMTP 5xx reply: a bad
 *    address, a refused sender, failed credentials); anything else may work on a later try.
 * 4. Credentials never reach a result: replies are quoted with the user name and password (plain,
 *    URL-encoded and base64, as AUTH sends them) replaced by ********, and AUTH commands by their verb.
 */
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import type { Transporter } from 'nodemailer';
import { quoteMasked } from '../common/secrets/secrets';
import { clip } from '../common/validation/text-rules';
import type { AppConfig } from '../config/config';
import { certFailure } from '../probes/checkers/cert';
import type { MailTransport, OutgoingMail, SendResult } from './mail-types';

export interface MailTimeouts {
  /** TCP connect. */
  connectionMs: number;
  /** The server's 220 greeting. */
  greetingMs: number;
  /** Silence while waiting for any reply. */
  socketMs: number;
  /** The whole exchange with one provider. */
  totalMs: number;
}

export const MAIL_TIMEOUTS: MailTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 15_000,
  totalMs: 30_000,
};

export interface MailTransportOptions {
  /** Extra CA certificate (PEM) trusted besides the system roots: tests only. */
  ca?: string;
  timeouts?: Partial<MailTimeouts>;
}

interface Provider {
  name: string;
  host: string;
  /** Made at the first message: nodemailer is not loaded on a start (it takes a tenth of a second). */
  transporter: () => Promise<Transporter>;
  /** Values scrubbed from anything said about this provider. */
  secrets: string[];
}

interface Failure {
  name: string;
  why: string;
  status: number | null;
  permanent: boolean;
}

/** What nodemailer attaches to its errors (dist/cjs/errors.d.ts NodemailerError). */
interface MailError {
  code?: string;
  message?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  permanent?: boolean;
  originalCode?: string;
  timeoutType?: string;
}

export function createMailTransport(
  config: Pick<AppConfig, 'smtp' | 'smtpFallback' | 'mailFrom'>,
  options: MailTransportOptions = {},
): MailTransport {
  const urls = [config.smtp, config.smtpFallback].filter((u): u is string => Boolean(u)).map((u) => new URL(u));
  const timeouts = { ...MAIL_TIMEOUTS, ...options.timeouts };
  // Two providers on one host are told apart by their ports.
  const sameHost = urls.length === 2 && urls[0].hostname === urls[1].hostname;
  const providers = urls.map((url) => provider(url, sameHost, timeouts, options.ca));
  return new SmtpMailTransport(providers, config.mailFrom, timeouts.totalMs);
}

function provider(url: URL, withPort: boolean, t: MailTimeouts, ca: string | undefined): Provider {
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  let made: Promise<Transporter> | null = null;
  const make = async (): Promise<Transporter> =>
    (await import('nodemailer')).createTransport({
      host,
      port,
      secure,
      auth: user ? { user, pass } : undefined,
      connectionTimeout: t.connectionMs,
      greetingTimeout: t.greetingMs,
      socketTimeout: t.socketMs,
      dnsTimeout: t.connectionMs,
      tls: { ...(isIP(host) ? {} : { servername: host }), ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) },
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  const transporter = () => (made ??= make());
  const secrets = [
    user,
    pass,
    url.username,
    url.password,
    base64(user),
    base64(pass),
    base64(`\u0000${user}\u0000${pass}`),
  ];
  return {
    name: withPort ? `${host}:${port}` : host,
    host,
    transporter,
    secrets: secrets.filter((s) => s.length >= 3),
  };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

class SmtpMailTransport implements MailTransport {
  readonly providers: readonly string[];

  constructor(
    private readonly list: Provider[],
    private readonly from: string,
    private readonly totalMs: number,
  ) {
    this.providers = list.map((p) => p.name);
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    if (this.list.length === 0) {
      return {
        ok: false,
        provider: null,
        status: null,
        error: 'no mail provider is configured (FARSIGHT_SMTP)',
        permanent: true,
      };
    }
    const failures: Failure[] = [];
    for (const p of this.list) {
      try {
        const info = await (
          await p.transporter()
        ).sendMail({
          from: this.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
          signal: AbortSignal.timeout(this.totalMs),
        });
        return {
          ok: true,
          provider: p.name,
          status: replyCode(info.response),
          error: partlyRefused(info.rejected, mail.to.length),
          permanent: false,
        };
      } catch (err) {
        failures.push(describeFailure(p, err as MailError, this.totalMs));
      }
    }
    const last = failures[failures.length - 1];
    return {
      ok: false,
      provider: last.name,
      status: last.status,
      error: clip(failures.map((f) => `${f.name}: ${f.why}`).join('; '), 300),
      permanent: failures.every((f) => f.permanent),
    };
  }
}

function replyCode(response: unknown): number | null {
  const m = typeof response === 'string' ? /^(\d{3})/.exec(response) : null;
  return m ? Number(m[1]) : null;
}

/** A note when the server took the message for some recipients only (then it counts as sent). */
function partlyRefused(rejected: unknown, total: number): string | null {
  const list = Array.isArray(rejected) ? rejected.map(String) : [];
  return list.length ? clip(`refused ${list.length} of ${total} recipients: ${list.join(', ')}`, 300) : null;
}

const TIMEOUT_WORDS: Record<string, string> = {
  CONNECT_TIMEOUT: 'timed out connecting',
  GREETING_TIMEOUT: 'no greeting from the server in time',
  UPGRADE_TIMEOUT: 'timed out starting TLS',
  SOCKET_TIMEOUT: 'the server stopped answering',
};

const SOCKET_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'cannot resolve the host name',
  EAI_AGAIN: 'cannot resolve the host name (resolver failed)',
};

function describeFailure(p: Provider, err: MailError, totalMs: number): Failure {
  if (typeof err.responseCode === 'number' && err.responseCode >= 200) {
    const code = err.responseCode;
    const reply = quoteMasked(err.response ?? String(code), p.secrets, 160);
    const verb = /^[A-Za-z]+(?: (?:TO|FROM))?/.exec(err.command ?? '')?.[0].toUpperCase();
    const permanent = err.permanent ?? (code >= 500 && code !== 503);
    return { name: p.name, why: verb ? `${reply} (after ${verb})` : reply, status: code, permanent };
  }
  const code = err.code ?? '';
  const inner = err.originalCode ?? '';
  let why: string;
  if (code === 'EABORT') why = `gave up after ${Math.round(totalMs / 1000)} s`;
  else if (code === 'ETIMEDOUT') why = TIMEOUT_WORDS[err.timeoutType ?? ''] ?? 'timed out';
  else if (SOCKET_WORDS[inner]) why = SOCKET_WORDS[inner];
  else if (SOCKET_WORDS[code]) why = SOCKET_WORDS[code];
  else if (code === 'EDNS') why = 'cannot resolve the host name';
  else if (code === 'ECONNECTION') why = 'the server closed the connection';
  else if (certFailure(inner, null)) why = `TLS failed: ${certFailure(inner, null)?.message}`;
  else if (inner === 'ERR_TLS_CERT_ALTNAME_INVALID') why = `TLS failed: the certificate is not for ${p.host}`;
  else if (code === 'ETLS' || /SSL|TLS/.test(inner))
    why = `TLS failed (${quoteMasked(err.message ?? inner, p.secrets, 120)})`;
  else if (code === 'ENOAUTH') why = 'the server asks for credentials: add user:password to the URL';
  else if (code === 'EAUTH') why = 'authentication failed';
  else why = `failed (${quoteMasked(`${code || inner} ${err.message ?? ''}`.trim(), p.secrets, 120)})`;
  return { name: p.name, why, status: null, permanent: false };
}
