/**
 * A promise nobody awaited that rejects must not end the service silently (Node's default since
 * v15 is to crash with a stack on stderr) nor vanish: it is logged as an error with its message,
 * and the service keeps running. A bug found this way gets a test and a fix; the guard only keeps
 * a homelab box monitoring meanwhile.
 */
import type { EventEmitter } from 'node:events';

export interface ErrorLog {
  error(message: string): void;
}

export function logUnhandledRejections(log: ErrorLog, proc: Pick<EventEmitter, 'on'> = process): void {
  proc.on('unhandledRejection', (reason: unknown) => {
    const text =
      reason instanceof Error ? `${reason.message}${reason.stack ? `\n${reason.stack}` : ''}` : String(reason);
    log.error(`unhandled rejection (a bug: please report it): ${text}`);
  });
}
