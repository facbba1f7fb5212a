/**
 * The in-process event bus: monitors announce configuration changes here; the scheduler, the
 * live stream and caches listen. Typed wrapper over EventEmitter; listeners must not throw.
 */
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';

export interface BusEvents {
  /** A monitor was created or its configuration changed (targetChanged: kind or target differ). */
  'monitor.changed': { id: number; created: boolean; targetChanged: boolean };
  'monitor.deleted': { id: number };
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
