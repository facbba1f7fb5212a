import type { Caller } from '../common/access/caller';
import type { BusEvents } from '../events/event-bus';
import { accessEnded, stillLive } from './stream-access';

const key = (keyId: number): Caller => ({ kind: 'key', keyId, name: `k${keyId}`, scope: 'read', ip: '127.0.0.1' });
const session = (sessionId: number): Caller => ({ kind: 'session', sessionId, freshUntil: 0, ip: '127.0.0.1' });

describe('accessEnded', () => {
  it.each<[string, Caller, BusEvents['access.ended'], boolean]>([
    ['its key revoked', key(1), { kind: 'key', keyId: 1 }, true],
    ['another key revoked', key(1), { kind: 'key', keyId: 2 }, false],
    ['a key id equal to a session id', session(1), { kind: 'key', keyId: 1 }, false],
    ['its session signed out', session(5), { kind: 'session', sessionId: 5 }, true],
    ['another session signed out', session(5), { kind: 'session', sessionId: 6 }, false],
    ['a session id equal to a key id', key(5), { kind: 'session', sessionId: 5 }, false],
    ['every session but another one ended', session(5), { kind: 'all-sessions', except: 6 }, true],
    ['every session but this one ended', session(5), { kind: 'all-sessions', except: 5 }, false],
    ['every session ended', session(5), { kind: 'all-sessions', except: null }, true],
    ['every session ended: keys stay', key(5), { kind: 'all-sessions', except: null }, false],
  ])('%s → %s', (_, caller, ended, expected) => {
    expect(accessEnded(caller, ended)).toBe(expected);
  });
});

describe('stillLive', () => {
  const live = { keys: new Set([1]), sessions: new Set([2]) };
  it.each<[string, Caller, boolean]>([
    ['a live key', key(1), true],
    ['a key gone or expired', key(2), false],
    ['a live session', session(2), true],
    ['a session gone or expired', session(1), false],
  ])('%s → %s', (_, caller, expected) => {
    expect(stillLive(caller, live)).toBe(expected);
  });
});
