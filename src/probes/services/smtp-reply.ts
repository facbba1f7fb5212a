/**
 * SMTP replies (RFC 5321 4.2): `250-first line` continues, `250 last line` ends. Reading one
 * reply from a byte stream, and the verdicts of the smtp kind's steps. Pure.
 */
import type { CheckError } from '../check-result';
import { clip } from '../judge/clip';

export interface SmtpReply {
  code: number;
  lines: string[];
}

/** At most this much of one reply is read: an EHLO answer is a few hundred bytes. */
export const REPLY_MAX_BYTES = 16 * 1024;

/**
 * The first whole reply in `text`, with what follows it; null while it is incomplete. A line
 * that is not `ddd`, `ddd-…` or `ddd …` is garbage: `{garbage: line}`.
 */
export function takeReply(text: string): { reply: SmtpReply; rest: string } | { garbage: string } | null {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf('\n', at);
    if (end < 0) return null;
    const line = text.slice(at, end).replace(/\r$/, '');
    at = end + 1;
    const m = /^([2-5]\d\d)([ -]|$)(.*)$/.exec(line);
    if (!m || (lines.length && Number(m[1]) !== Number(lines[0].slice(0, 3)))) return { garbage: line };
    lines.push(line);
    if (m[2] !== '-')
      return { reply: { code: Number(m[1]), lines: lines.map((l) => l.slice(4)) }, rest: text.slice(at) };
  }
}

/** Whether an EHLO answer offers an extension (`STARTTLS`, `SIZE 35882577`: the keyword alone counts). */
export function offers(ehlo: SmtpReply, keyword: string): boolean {
  return ehlo.lines.slice(1).some((l) => l.split(' ')[0].toUpperCase() === keyword);
}

const said = (r: SmtpReply) => `${r.code} ${clip(r.lines[0] ?? '')}`;

export function judgeGreeting(r: SmtpReply): CheckError | null {
  return r.code === 220 ? null : { code: 'banner', message: `the server greeted with ${said(r)}, not 220` };
}

export function judgeEhlo(r: SmtpReply): CheckError | null {
  return r.code === 250 ? null : { code: 'protocol', message: `EHLO was answered ${said(r)}` };
}

export function judgeStartTls(ehlo: SmtpReply, answer: SmtpReply | null): CheckError | null {
  if (!offers(ehlo, 'STARTTLS')) return { code: 'tls_required', message: 'the server does not offer STARTTLS' };
  if (answer && answer.code !== 220) return { code: 'tls', message: `STARTTLS was answered ${said(answer)}` };
  return null;
}

/** The detail line: the greeting's first line. */
export function describeGreeting(r: SmtpReply): string {
  return `banner: ${said(r)}`;
}
