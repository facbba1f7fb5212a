/**
 * Event ids and what a reconnecting client gets. An id is `<boot>-<seq>`: `boot` is drawn at
 * random when the process starts, so an id from an earlier run is never taken for one of this
 * run (the numbers start again at 1). A client that sends Last-Event-ID gets the events after it
 * from the ring, or, when that cannot be done exactly, a reset: it must reload its state from
 * the REST API. Pure.
 */
import type { EventRing } from './event-ring';

/** Why a resume was not possible (the `reason` of the `reset` event; docs/stream.md). */
export type ResetReason =
  /** The id is from another run of the service (it restarted since). */
  | 'restarted'
  /** Events after the id are no longer in the ring. */
  | 'gone'
  /** The missed events are more than a client may have queued at once. */
  | 'too_far_behind'
  /** Not an id this service hands out, or one it has not handed out yet. */
  | 'unknown_id';

export type Resume =
  /** No Last-Event-ID: a new client, which loads its state from the REST API anyway. */
  | { kind: 'fresh' }
  /** The missed events, oldest first; `after` is the sequence number the client held. */
  | { kind: 'replay'; after: number; frames: Buffer[] }
  | { kind: 'reset'; reason: ResetReason };

const EVENT_ID = /^([0-9a-z]{1,32})-(0|[1-9][0-9]{0,15})$/;

export function eventId(boot: string, seq: number): string {
  return `${boot}-${seq}`;
}

export function parseEventId(text: string): { boot: string; seq: number } | null {
  const m = EVENT_ID.exec(text);
  if (!m) return null;
  const seq = Number(m[2]);
  return Number.isSafeInteger(seq) ? { boot: m[1], seq } : null;
}

/**
 * Decides what a client that sent `lastEventId` gets before the live events. A replay is
 * refused when it is larger than `maxReplayBytes` (half the per-client queue): it would get the
 * client dropped at once, and its next reconnect would ask for the same again.
 */
export function decideResume(
  lastEventId: string | undefined,
  boot: string,
  ring: EventRing,
  maxReplayBytes: number,
): Resume {
  const text = lastEventId?.trim() ?? '';
  if (text === '') return { kind: 'fresh' };
  const id = parseEventId(text);
  if (!id) return { kind: 'reset', reason: 'unknown_id' };
  if (id.boot !== boot) return { kind: 'reset', reason: 'restarted' };
  const frames = ring.after(id.seq);
  if (!frames) return { kind: 'reset', reason: id.seq > ring.last ? 'unknown_id' : 'gone' };
  let bytes = 0;
  for (const f of frames) bytes += f.length;
  if (bytes > maxReplayBytes) return { kind: 'reset', reason: 'too_far_behind' };
  return { kind: 'replay', after: id.seq, frames };
}
