/**
 * The outbox: an alert is a row before anything is sent. Engine changes become rows inside the
 * writer's transaction (the same one as their state row and incident); reminders and the
 * service's own notices in transactions of their own. Events for one channel within BATCH_MS of
 * a message's first event join that message. The dispatcher sends what is due.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import type { AlertCauseRecord, AlertSink, IncidentAck } from '../engine/alerts/alert-causes';
import { EngineService } from '../engine/engine.service';
import { formatDuration, formatWhen } from '../common/time';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { acknowledgedEvent, causeEvent, noticeEvent } from './alert-events';
import { BATCH_MS, channelsFor, decideAlert, noticeChannels, unsentLine } from './alert-rules';
import type { AlertEvent } from './channel-kind';
import { ChannelsRepository } from './channels.repository';
import { addEventIn, gatheringMessageIn, messageEventsIn, newMessageIn } from './outbox.table';

/** What one enqueued event is about. */
export interface EventOrigin {
  monitorId: number | null;
  incidentId: number | null;
}

@Injectable()
export class OutboxService implements AlertSink {
  private readonly log = new Logger('outbox');
  /** Called when rows were committed (the dispatcher wakes). */
  private listeners: (() => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly channels: ChannelsRepository,
    private readonly events: EventsService,
    private readonly engine: EngineService,
    bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    engine.setAlertSink(this);
    bus.on('blind', ({ active, since }) =>
      this.notice(
        active
          ? `Farsight lost its network at ${formatWhen(since)}: no canary answers, so failed checks are not counted until it is back`
          : `Farsight has its network back (it was blind since ${formatWhen(since)}): checks count again`,
      ),
    );
    bus.on('notice', ({ message }) => this.notice(message));
    bus.on('offline', ({ from, to, clean }) =>
      this.notice(
        `Farsight was ${clean ? 'stopped' : 'not running (it ended without a clean stop)'} from ${formatWhen(from)} to ${formatWhen(to)} (${formatDuration(to - from)}): nothing was checked meanwhile`,
      ),
    );
  }

  onCommitted(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Inside the writer's transaction (AlertSink). */
  async write(tx: EntityManager, causes: readonly AlertCauseRecord[]): Promise<void> {
    const targets = this.channels.targets();
    const open = new Map<number, number>();
    for (const r of causes) {
      const d = decideAlert(r.cause, r.config, r.held === true, targets, r.at);
      if (d.kind === 'none') continue;
      // Every up and down says in its incident's timeline where it went, or why nowhere; a monitor
      // joining the outage does not repeat what the cause's own down alert said (docs/dependencies.md).
      const why = r.cause === 'affected' ? null : unsentLine(r.config.name, d);
      if (why !== null) {
        if (r.incidentId !== null) await this.alertLine(tx, r.incidentId, r.monitorId, why, r.at);
        continue;
      }
      if (d.kind !== 'send') continue;
      const event = causeEvent(r, d.type);
      for (const channelId of d.channelIds)
        await this.enqueueIn(tx, channelId, event, { monitorId: r.monitorId, incidentId: r.incidentId }, r.at, open);
    }
  }

  /**
   * An acknowledgement goes to the channels that carry an incident's lifecycle (PagerDuty: its
   * alert is acknowledged by the same dedup_key) and that took this monitor's down alert.
   */
  async acknowledgedIn(tx: EntityManager, ack: IncidentAck): Promise<void> {
    const config = this.engine.configOf(ack.monitorId);
    if (!config) return;
    const lifecycle = new Set(
      this.channels
        .all()
        .filter((c) => c.kind === 'pagerduty')
        .map((c) => c.id),
    );
    const ids = channelsFor(config.channels, 'down', this.channels.targets()).filter((id) => lifecycle.has(id));
    const event = acknowledgedEvent(ack.monitorId, config, ack.incidentId, ack.who, ack.at);
    for (const id of ids)
      await this.enqueueIn(tx, id, event, { monitorId: ack.monitorId, incidentId: ack.incidentId }, ack.at);
  }

  committed(): void {
    for (const fn of this.listeners) fn();
  }

  /**
   * Adds one event to the channel's open message (one row in outbox_events: constant work however
   * large the batch), or opens a message due BATCH_MS from now. `open` remembers the open message
   * per channel within one transaction (it cannot change under it), so a burst looks it up once.
   */
  async enqueueIn(
    tx: EntityManager,
    channelId: number,
    event: AlertEvent,
    origin: EventOrigin,
    now: number,
    open = new Map<number, number>(),
  ): Promise<void> {
    let outboxId = open.get(channelId);
    if (outboxId === undefined) {
      outboxId = (await gatheringMessageIn(tx, channelId)) ?? (await newMessageIn(tx, channelId, now, now + BATCH_MS));
      open.set(channelId, outboxId);
    }
    await addEventIn(tx, outboxId, {
      event: JSON.stringify(event),
      monitor_id: origin.monitorId,
      incident_id: origin.incidentId,
    });
  }

  /** A message's events in the order they came, with the monitors and incidents they are about. */
  async messageIn(
    tx: EntityManager,
    outboxId: number,
  ): Promise<{ events: AlertEvent[]; monitorIds: number[]; incidentIds: number[] }> {
    const rows = await messageEventsIn(tx, outboxId);
    const unique = (ids: (number | null)[]) => [...new Set(ids.filter((id): id is number => id !== null))];
    return {
      events: rows.map((r) => JSON.parse(r.event) as AlertEvent),
      monitorIds: unique(rows.map((r) => r.monitor_id)),
      incidentIds: unique(rows.map((r) => r.incident_id)),
    };
  }

  /** A notice to every enabled channel that takes notices, in its own transaction. */
  async notice(message: string, except: number[] = []): Promise<void> {
    const channelIds = noticeChannels(this.channels.targets()).filter((id) => !except.includes(id));
    if (channelIds.length === 0) return;
    const now = this.clock.now();
    const event = noticeEvent(message, now);
    try {
      await this.db.tx(async (m) => {
        for (const id of channelIds) await this.enqueueIn(m, id, event, { monitorId: null, incidentId: null }, now);
      });
      this.committed();
    } catch (err) {
      this.log.error(`could not queue a notice: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** One `alert` line in an incident's timeline. */
  async alertLine(
    tx: EntityManager,
    incidentId: number,
    monitorId: number | null,
    text: string,
    at: number,
  ): Promise<void> {
    await this.events.recordIn(tx, { kind: 'alert', at, monitorId, incidentId, actor: 'system', text });
  }
}
