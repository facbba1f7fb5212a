/**
 * The live stream's hub: hears the bus once for every client, turns each event into its SSE frame
 * once (id, event, JSON), keeps it in the ring for resumes, and hands the same bytes to every open
 * stream. Frames made in one turn of the event loop go out as one write per client. Nothing here
 * waits for a client: a slow one is cut off by its own StreamClient, and the engine that emitted
 * the event has long moved on.
 *
 * When events are sent (docs/stream.md):
 * - check: at once, when the engine has the result (before it is written, like GET /checks);
 * - state: after a transition of the monitor committed, or a change of what its `state.locations`
 *   shows (`monitor.locations`), one per monitor and turn, the state now, with its locations;
 * - incident, blind, path: when the bus announces them (after their rows committed);
 * - monitors: changes and deletions gathered over `monitorsWindowMs`.
 */
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiKeysService } from '../auth/api-keys/api-keys.service';
import { SessionsService } from '../auth/sessions/sessions.service';
import { ApiError } from '../common/http/api-error';
import type { Caller } from '../common/access/caller';
import { CLOCK, Clock } from '../common/clock';
import { VERSION } from '../common/version';
import { EngineService } from '../engine/engine.service';
import { BusEvents, EventBus } from '../events/event-bus';
import { EventRing } from './event-ring';
import { MonitorChanges } from './monitor-changes';
import { decideResume, eventId } from './resume';
import { commentFrame, eventFrame, jsonEventFrame } from './sse-frame';
import { accessEnded, stillLive } from './stream-access';
import { StreamClient } from './stream-client';
import {
  blindData,
  checkDataJson,
  incidentData,
  maintenanceData,
  pathData,
  stateData,
  StreamEvent,
} from './stream-events';
import { STREAM_OPTIONS, StreamOptions } from './stream-options';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  // nginx buffers proxied answers unless told not to.
  'X-Accel-Buffering': 'no',
};

@Injectable()
export class StreamHub implements OnModuleDestroy {
  /** Drawn at start: ids of an earlier run never match (resume.ts). */
  readonly boot = randomBytes(4).toString('hex');
  private readonly ring: EventRing;
  private readonly clients = new Set<StreamClient>();
  /** Frames made in this turn of the event loop, not yet written to the clients. */
  private batch: Buffer[] = [];
  private flushing: NodeJS.Immediate | null = null;
  /** Monitors with a committed transition (or a location's change) in this turn: one `state` event each. */
  private readonly transitioned = new Set<number>();
  private readonly changes = new MonitorChanges();
  private changesTimer: NodeJS.Timeout | null = null;
  private readonly keepAlive: NodeJS.Timeout;
  private readonly accessSweep: NodeJS.Timeout;
  private readonly keepAliveFrame = Buffer.from(commentFrame('keep-alive'));
  private readonly unsubscribe: (() => void)[];
  private readonly log = new Logger('stream');
  /** Clients cut off for not reading, since start. */
  dropped = 0;
  /** Set on shutdown: a stream opened now would hold the HTTP server's close. */
  private stopped = false;

  constructor(
    bus: EventBus,
    private readonly engine: EngineService,
    private readonly keys: ApiKeysService,
    private readonly sessions: SessionsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(STREAM_OPTIONS) private readonly o: StreamOptions,
  ) {
    this.ring = new EventRing(o.ringEvents, o.ringBytes);
    this.unsubscribe = [
      bus.on('check', (c) => this.publishJson('check', checkDataJson(c))),
      bus.on('monitor.transition', ({ id }) => this.stateChanged(id)),
      bus.on('monitor.locations', ({ id }) => this.stateChanged(id)),
      bus.on('incident', (e) => this.publish('incident', incidentData(e, this.clock.now()))),
      bus.on('blind', (b) => this.publish('blind', blindData(b))),
      bus.on('path', (p) => this.publish('path', pathData(p))),
      bus.on('maintenance', (e) => {
        this.publish(e.started ? 'maintenance.started' : 'maintenance.ended', maintenanceData(e));
        // The monitors' `state.maintenance` changed with it.
        for (const id of e.monitors ?? this.engine.monitorIds()) this.transitioned.add(id);
        this.soon();
      }),
      bus.on('monitor.changed', ({ id }) => this.monitorChanged(id, 'change')),
      bus.on('monitor.deleted', ({ id }) => this.monitorChanged(id, 'delete')),
      bus.on('access.ended', (e) => this.endAccess(e)),
    ];
    this.keepAlive = setInterval(() => this.sendKeepAlive(), o.keepAliveMs).unref();
    this.accessSweep = setInterval(() => void this.sweep(), o.accessSweepMs).unref();
  }

  /** Open streams. */
  get size(): number {
    return this.clients.size;
  }

  /** The newest event's id (what a client that is up to date holds). */
  get lastEventId(): string {
    return eventId(this.boot, this.ring.last);
  }

  /**
   * Starts a stream on a response nobody has written to yet: `hello` first (with `retry:`), then
   * what a Last-Event-ID asks for (the missed events, or `reset`), then every event live.
   */
  open(req: IncomingMessage, res: ServerResponse, caller: Caller): void {
    if (this.stopped) throw new ApiError('unavailable', 'the service is stopping; reconnect in a moment');
    // The ring and the clients must agree before this one joins: events still in the batch are
    // in the ring already, and a replay must not be followed by the same events again.
    this.flush();
    const header = req.headers['last-event-id'];
    const resume = decideResume(
      Array.isArray(header) ? header[0] : header,
      this.boot,
      this.ring,
      this.o.clientQueueBytes / 2,
    );
    const client = StreamClient.start(req, res, SSE_HEADERS, caller, this.o.clientQueueBytes, (c, queued) =>
      this.overflowed(c, queued),
    );
    if (!client) return;
    const position = resume.kind === 'replay' ? resume.after : this.ring.last;
    const parts: Buffer[] = [
      Buffer.from(eventFrame(eventId(this.boot, position), 'hello', { version: VERSION }, this.o.retryMs)),
    ];
    if (resume.kind === 'replay') parts.push(...resume.frames);
    // In the same write as hello: a client never holds hello's id without having seen the reset.
    if (resume.kind === 'reset')
      parts.push(Buffer.from(eventFrame(this.lastEventId, 'reset', { reason: resume.reason })));
    this.clients.add(client);
    res.on('close', () => this.clients.delete(client));
    client.write(Buffer.concat(parts));
  }

  /**
   * Closes the streams whose key or session has expired or is gone (a revocation closes them at
   * once through `access.ended`; this catches expiry, and anything that deleted rows directly).
   */
  async sweep(): Promise<void> {
    const open = [...this.clients];
    if (open.length === 0) return;
    const keyIds = new Set<number>();
    const sessionIds = new Set<number>();
    for (const c of open) {
      if (c.caller.kind === 'key') keyIds.add(c.caller.keyId);
      else sessionIds.add(c.caller.sessionId);
    }
    const now = this.clock.now();
    try {
      const [keys, sessions] = await Promise.all([
        this.keys.liveIds([...keyIds], now),
        this.sessions.liveIds([...sessionIds], now),
      ]);
      for (const c of open) {
        if (!stillLive(c.caller, { keys, sessions })) {
          this.log.debug(`stream of ${c.label} closed: its access expired or is gone`);
          c.close();
        }
      }
    } catch (err) {
      this.log.warn(
        `could not check open streams against their keys and sessions: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const off of this.unsubscribe) off();
    clearInterval(this.keepAlive);
    clearInterval(this.accessSweep);
    if (this.changesTimer) clearTimeout(this.changesTimer);
    if (this.flushing) clearImmediate(this.flushing);
    // Open streams would hold the HTTP server's close; clients reconnect and, with a new boot id, get a reset.
    for (const c of this.clients) c.close();
    this.clients.clear();
  }

  private publish(event: StreamEvent, data: unknown): void {
    this.publishJson(event, JSON.stringify(data));
  }

  private publishJson(event: StreamEvent, json: string): void {
    const frame = Buffer.from(jsonEventFrame(eventId(this.boot, this.ring.next), event, json));
    this.ring.push(frame);
    if (this.clients.size === 0) return;
    this.batch.push(frame);
    this.soon();
  }

  private soon(): void {
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.transitioned.size) this.publishStates();
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    if (this.batch.length === 0) return;
    const chunk = this.batch.length === 1 ? this.batch[0] : Buffer.concat(this.batch);
    this.batch = [];
    for (const c of this.clients) c.write(chunk);
  }

  /** The monitor's `state` event goes out with this turn's frames. */
  private stateChanged(id: number): void {
    this.transitioned.add(id);
    this.soon();
  }

  private publishStates(): void {
    const now = this.clock.now();
    const ids = [...this.transitioned];
    this.transitioned.clear();
    for (const id of ids) {
      const state = this.engine.stateOf(id);
      const config = this.engine.configOf(id);
      // Deleted since: its `monitors` event says so.
      if (state && config) {
        const locations = this.engine.votes.answer(id, config);
        this.publish('state', stateData(state, config.muted_until, now, this.engine.maintenance.markOf(id), locations));
      }
    }
  }

  private monitorChanged(id: number, how: 'change' | 'delete'): void {
    this.changes[how](id);
    this.changesTimer ??= setTimeout(() => {
      this.changesTimer = null;
      this.publish('monitors', this.changes.take());
    }, this.o.monitorsWindowMs);
  }

  private sendKeepAlive(): void {
    this.flush();
    for (const c of this.clients) c.write(this.keepAliveFrame);
  }

  private endAccess(ended: BusEvents['access.ended']): void {
    for (const c of this.clients) {
      if (accessEnded(c.caller, ended)) {
        this.log.debug(`stream of ${c.label} closed: its access ended`);
        c.close();
      }
    }
  }

  private overflowed(c: StreamClient, queued: number): void {
    this.dropped += 1;
    this.log.warn(
      `stream of ${c.label} cut off: it left ${queued} bytes unread (limit ${this.o.clientQueueBytes}); it may reconnect with Last-Event-ID`,
    );
  }
}
