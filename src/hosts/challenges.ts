/**
 * HTTP-01 challenge answers (RFC 8555 8.3): token -> key authorization, for the order that set
 * them. Answered at /.well-known/acme-challenge/<token> on FARSIGHT_ACME_HTTP_LISTEN and on the
 * main listener (an owner may forward port 80 to either). A token is public by design: it is
 * only worth something to the account that asked for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export class ChallengeStore {
  private readonly answers = new Map<string, string>();

  set(token: string, keyAuthorization: string): void {
    this.answers.set(token, keyAuthorization);
  }

  delete(token: string): void {
    this.answers.delete(token);
  }

  /** Answers a challenge request; false when the request is not one (the caller goes on). */
  respond(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!url.startsWith(CHALLENGE_PREFIX) || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const token = url.slice(CHALLENGE_PREFIX.length).split('?')[0];
    const answer = TOKEN.test(token) ? this.answers.get(token) : undefined;
    res.statusCode = answer === undefined ? 404 : 200;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(req.method === 'HEAD' ? undefined : (answer ?? 'no such challenge\n'));
    return true;
  }
}
