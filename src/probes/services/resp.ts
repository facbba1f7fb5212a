/**
 * The little of RESP (the Redis serialization protocol) a redis check speaks: commands as arrays
 * of bulk strings, and the replies AUTH, SELECT and PING give (simple strings, errors, integers,
 * bulk strings). https://redis.io/docs/latest/develop/reference/protocol-spec/ Pure.
 */
import type { CheckError } from '../check-result';
import { clip } from '../judge/clip';

export type RespReply = { kind: 'ok'; text: string } | { kind: 'error'; text: string };

/** A reply is read up to this size; PONG is 7 bytes. */
export const RESP_MAX_BYTES = 64 * 1024;

export function encodeCommand(args: readonly string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const a of args) parts.push(`$${Buffer.byteLength(a)}\r\n${a}\r\n`);
  return Buffer.from(parts.join(''));
}

/** The first whole reply in `text` (latin1), with what follows; null while incomplete. */
export function takeRespReply(text: string): { reply: RespReply; rest: string } | { garbage: string } | null {
  const end = text.indexOf('\r\n');
  if (end < 0) return text.length > 0 && !'+-:$'.includes(text[0]) ? { garbage: firstLine(text) } : null;
  const line = text.slice(1, end);
  switch (text[0]) {
    case '+':
    case ':':
      return { reply: { kind: 'ok', text: line }, rest: text.slice(end + 2) };
    case '-':
      return { reply: { kind: 'error', text: line }, rest: text.slice(end + 2) };
    case '$': {
      if (!/^(?:-1|\d{1,9})$/.test(line)) return { garbage: firstLine(text) };
      const size = Number(line);
      if (size < 0) return { reply: { kind: 'ok', text: '' }, rest: text.slice(end + 2) };
      if (text.length < end + 2 + size + 2) return null;
      return { reply: { kind: 'ok', text: text.slice(end + 2, end + 2 + size) }, rest: text.slice(end + 4 + size) };
    }
    default:
      return { garbage: firstLine(text) };
  }
}

function firstLine(text: string): string {
  return text.split(/\r?\n/)[0];
}

/** AUTH's answer: WRONGPASS (Redis 6+), or the older "invalid password". */
export function judgeAuth(r: RespReply): CheckError | null {
  if (r.kind === 'ok') return null;
  if (/^ERR (?:AUTH|Client sent AUTH).*no password is set|without any password configured/i.test(r.text))
    return { code: 'auth_failed', message: 'a password was given, and the server has none set' };
  return { code: 'auth_failed', message: `the server refused the credentials (${clip(r.text)})` };
}

export function judgeSelect(r: RespReply, db: string): CheckError | null {
  if (r.kind === 'ok') return null;
  if (/out of range|invalid DB index/i.test(r.text))
    return { code: 'db_not_found', message: `database ${db} does not exist on the server (${clip(r.text)})` };
  return judgeCommandError(r);
}

export function judgePing(r: RespReply): CheckError | null {
  if (r.kind === 'ok')
    return r.text === 'PONG' ? null : { code: 'protocol', message: `PING was answered "${clip(r.text)}", not PONG` };
  return judgeCommandError(r);
}

/** NOAUTH: the server wants a password the monitor does not have. */
function judgeCommandError(r: RespReply): CheckError {
  if (/^NOAUTH\b/.test(r.text)) return { code: 'auth_failed', message: 'the server needs a password (NOAUTH)' };
  if (/^WRONGPASS\b/.test(r.text))
    return { code: 'auth_failed', message: `the server refused the credentials (${clip(r.text)})` };
  return { code: 'query_failed', message: `the server answered an error: ${clip(r.text)}` };
}
