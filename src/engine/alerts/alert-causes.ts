/**
 * What the engine tells the alert layer: each change that may become an alert, handed over in
 * the writer's transaction together with the state row and the incident it belongs to, so an
 * alert is an outbox row before anything is sent (channels/outbox.service.ts is the sink).
 */
import type { EntityManager } from 'typeorm';
import type { MonitorConfig } from '../../probes/monitor-config';

/** `affected`: a monitor joined this (the cause's) outage instead of alerting itself (docs/dependencies.md). */
export type AlertCauseKind = 'down' | 'up' | 'slow' | 'slow_end' | 'flapping' | 'cert' | 'affected';

export interface AlertCauseRecord {
  monitorId: number;
  cause: AlertCauseKind;
  at: number;
  /** The incident it belongs to (down, up, and changes while one is open). */
  incidentId: number | null;
  /** The monitor's configuration at that moment (channels, mute, name, target). */
  config: MonitorConfig;
  /** Whether the monitor is flapping after the change (reminders pause while it flaps). */
  flapping: boolean;
  /** down/up: held back because the monitor flaps (alert-hold.ts); an `alert` line says so. */
  held?: boolean;
  /** down/up: a held alert delivered when flapping ended (durationMs: up, how long it has been up). */
  settled?: boolean;
  /** flapping: started (true) or stopped. */
  on?: boolean;
  error?: { code: string; message: string } | null;
  /** up: how long it was down; down: how long it has been failing. */
  durationMs?: number;
  cert?: { notAfter: number; days: number };
  /** affected: the monitor that joined; `config` and `monitorId` are the cause's (its channels and mute decide). */
  affected?: { id: number; name: string };
}

/** The alert layer, registered with the engine (EngineService.setAlertSink). */
export interface AlertSink {
  /** Inside the writer's transaction: turn causes into outbox rows (or muted lines). */
  write(tx: EntityManager, causes: readonly AlertCauseRecord[]): Promise<void>;
  /** The transaction committed: messages may be sent. */
  committed(): void;
  /**
   * Inside the transaction that stores an owner's acknowledgement of an open incident: queue what
   * the channels that carry incidents (PagerDuty) send for it, durable with the acknowledgement.
   */
  acknowledgedIn(tx: EntityManager, ack: IncidentAck): Promise<void>;
}

/** A reader of the causes besides the alert layer (EngineService.addCauseSink): the same two steps. */
export type CauseSink = Pick<AlertSink, 'write' | 'committed'>;

export interface IncidentAck {
  incidentId: number;
  monitorId: number;
  /** Who acknowledged, in words ("the owner", "API key \"ops\""). */
  who: string;
  at: number;
}
