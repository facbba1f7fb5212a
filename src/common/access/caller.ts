import type { KeyScope } from './scope';

/** Who is making a request, resolved once by the AuthGuard. */
export type Caller =
  | { kind: 'session'; sessionId: number; freshUntil: number; ip: string }
  | { kind: 'key'; keyId: number; name: string; scope: KeyScope; ip: string };

/** Stable identity for idempotency records and rate limits. */
export function callerId(c: Caller): string {
  return c.kind === 'session' ? 'owner' : `key:${c.keyId}`;
}

/** How the timeline names who made a change. */
export function actorName(c: Caller | null | undefined): string {
  if (!c) return 'system';
  return c.kind === 'session' ? 'owner' : `key:${c.name}`;
}
