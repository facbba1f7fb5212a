/**
 * The in-process event bus: monitors announce configuration changes here; the scheduler, the
 * live stream and caches listen. Typed wrapper over EventEmitter; listeners must not throw.
 */
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Transition } from '../probes/status';
import type { MonitorConfig } from '../probes/monitor-config';

export interface BusEvents {
  /** A monitor was created or its configuration changed (targetChanged: kind or target differ). */
  'monitor.changed': { id: number; created: boolean; targetChanged: boolean; config: MonitorConfig };
  'monitor.deleted': { id: number };
  /** A heartbeat monitor got a new ping URL: the old one stops working. */
  'monitor.token': { id: number };
  /** A monitor's status moved (incidents, alerts and the live stream listen). */
  'monitor.transition': { id: number; transition: Transition };
  /** A certificate crossed a tls_warn_days threshold. */
  'monitor.cert': { id: number; notAfter: number; days: number; at: number };
  /** A second opinion found a network path problem. */
  path: { host: string; at: number };
  /** The service went blind (no canary reachable) or came back. */
  blind: { active: boolean; since: number };
  /** On start: the service itself was not running from `from` to `to` (clean: it was stopped, not killed). */
  offline: { from: number; to: number; clean: boolean };
}

@Injectable()
export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false });
  private readonly log = new Logger('bus');

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  emit<K extends keyof BusEvents>(name: K, payload: BusEvents[K]): void {
    for (const listener of this.emitter.listeners(name)) {
      try {
        (listener as (p: BusEvents[K]) => void)(payload);
      } catch (err) {
        this.log.error(`listener of ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  on<K extends keyof BusEvents>(name: K, listener: (payload: BusEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
