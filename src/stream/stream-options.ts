/**
 * The stream's limits (docs/stream.md). The defaults are what the service runs with; tests pass
 * shorter times (AppDeps.stream) so they never wait 25 s for a keep-alive.
 */
export interface StreamOptions {
  /** A comment line this often on every stream (spec "Limits": 25 s). */
  keepAliveMs: number;
  /** The reconnection delay a client is asked to use (`retry:`, sent once with `hello`). */
  retryMs: number;
  /** Events kept for Last-Event-ID resumes, at most this many... */
  ringEvents: number;
  /** ...and at most this many bytes of frames. */
  ringBytes: number;
  /** Bytes a client may leave unread in the service before it is disconnected. */
  clientQueueBytes: number;
  /** Monitor changes within this window become one `monitors` event. */
  monitorsWindowMs: number;
  /** How often open streams are checked against their key's or session's expiry. */
  accessSweepMs: number;
}

export const STREAM_OPTIONS = Symbol('StreamOptions');

export const DEFAULT_STREAM_OPTIONS: Readonly<StreamOptions> = Object.freeze({
  keepAliveMs: 25_000,
  retryMs: 3_000,
  ringEvents: 10_000,
  ringBytes: 8 * 1024 * 1024,
  clientQueueBytes: 1024 * 1024,
  monitorsWindowMs: 200,
  accessSweepMs: 60_000,
});

export function streamOptions(over: Partial<StreamOptions> = {}): StreamOptions {
  return { ...DEFAULT_STREAM_OPTIONS, ...over };
}
