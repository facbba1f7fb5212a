/**
 * Which open streams lose their access: a stream lives on the key or session that opened it, and
 * closes when that key is revoked or expires, or that session signs out, is revoked or expires.
 * Pure.
 */
import type { Caller } from '../common/access/caller';
import type { BusEvents } from '../events/event-bus';

/** True when `ended` takes away the access this caller's stream was opened with. */
export function accessEnded(caller: Caller, ended: BusEvents['access.ended']): boolean {
  switch (ended.kind) {
    case 'key':
      return caller.kind === 'key' && caller.keyId === ended.keyId;
    case 'session':
      return caller.kind === 'session' && caller.sessionId === ended.sessionId;
    case 'all-sessions':
      return caller.kind === 'session' && caller.sessionId !== ended.except;
  }
}

/** True when the caller's key or session is among those still live. */
export function stillLive(caller: Caller, live: { keys: ReadonlySet<number>; sessions: ReadonlySet<number> }): boolean {
  return caller.kind === 'key' ? live.keys.has(caller.keyId) : live.sessions.has(caller.sessionId);
}
