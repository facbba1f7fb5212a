/**
 * Heartbeat pings. The token is looked up by its hash (cached in memory: thousands of pings a
 * second must not each cost a query); a ping is an `up` result, a failure report a `down` one
 * whose message is the reported text. Abusive callers are limited: 600 pings a minute per URL,
 * and 60 unknown URLs a minute per address.
 */
import { Inject, Injectable } from '@nestjs/common';
import { sha256 } from '../../common/access/tokens';
import { addressBucket } from '../../common/http/client-ip';
import { CLOCK, Clock } from '../../common/clock';
import { RateLimiter } from '../../common/http/limits/rate-limit';
import { MonitorsRepository } from '../../catalog/monitors.repository';
import { ReadCacheMap } from '../../db/read-cache';
import { EventBus } from '../../events/event-bus';
import { CheckResult, NO_PHASES } from '../../probes/check-result';
import { EngineService } from '../engine.service';

export interface PingAnswer {
  status: number;
  text: string;
  retryAfterS?: number;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;
/**
 * Uptime Kuma's push tokens, kept by `farsight import-kuma` as ping tokens (docs/import-kuma.md):
 * Kuma 1.x made them 10 characters long, later ones 32, and they could be typed by hand.
 */
export const KUMA_TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
const CACHE_MAX = 50_000;

@Injectable()
export class HeartbeatService {
  private readonly ids = new ReadCacheMap<string, number | null>(CACHE_MAX);
  private readonly perToken = new RateLimiter(600);
  private readonly unknownPerIp = new RateLimiter(60);

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly engine: EngineService,
    bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    const forget = ({ id }: { id: number }) => this.ids.drop((cached) => cached === id);
    bus.on('monitor.deleted', forget);
    bus.on('monitor.changed', forget);
    bus.on('monitor.token', forget);
  }

  /**
   * Answers a ping or failure report. A token seen before is answered at once, without a promise
   * (the common case, thousands a second); an unknown one after a read of the database.
   */
  ping(
    token: string,
    kind: 'ping' | 'fail',
    text: string | null,
    ip: string,
    kuma: { latencyMs: number | null } | null = null,
  ): PingAnswer | Promise<PingAnswer> {
    // A Kuma push URL (GET /api/push/{token}) may carry a shorter token than this service makes.
    if (!(kuma ? KUMA_TOKEN_SHAPE : TOKEN_SHAPE).test(token)) return this.answer(null, kind, text, ip, null);
    const latency = kuma?.latencyMs ?? null;
    const id = this.ids.peek(token);
    if (id !== undefined) return this.answer(id, kind, text, ip, latency);
    return this.lookup(token).then((found) => this.answer(found, kind, text, ip, latency));
  }

  private answer(
    id: number | null,
    kind: 'ping' | 'fail',
    text: string | null,
    ip: string,
    latencyMs: number | null,
  ): PingAnswer {
    const now = this.clock.now();
    if (id === null) {
      const d = this.unknownPerIp.take(addressBucket(ip), now);
      if (!d.ok) return { status: 429, text: 'too many requests', retryAfterS: d.retryAfterS };
      return { status: 404, text: 'unknown heartbeat URL' };
    }
    const d = this.perToken.take(String(id), now);
    if (!d.ok) return { status: 429, text: 'too many pings', retryAfterS: d.retryAfterS };
    const result: CheckResult = {
      at_ms: now,
      outcome: kind === 'ping' ? 'up' : 'down',
      latency_ms: latencyMs,
      phases: { ...NO_PHASES },
      status: null,
      error:
        kind === 'fail'
          ? { code: 'heartbeat', message: text ? `failure reported: ${clean(text)}` : 'failure reported' }
          : null,
      cert: null,
      detail: kind === 'ping' && text ? clean(text) : null,
    };
    const counted = this.engine.heartbeat(id, result, kind);
    return { status: 200, text: counted ? 'OK' : 'OK (monitor paused: ping ignored)' };
  }

  /** Known tokens are cached by their text (only the hash is stored, and hashing every ping costs). */
  private lookup(token: string): Promise<number | null> {
    return this.ids.get(token, () => this.monitors.heartbeatIdByTokenHash(sha256(token)), isKnown);
  }
}

/** Only known tokens are kept: an unknown one may be sprayed by anyone, and costs a read each time. */
const isKnown = (id: number | null): boolean => id !== null;

/** Control characters out, whitespace folded: the text ends up in alerts and the timeline. */
function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
