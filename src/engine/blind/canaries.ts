/** TCP canaries: can this machine still reach the network it had? */
import * as net from 'node:net';
import type { ListenAddress } from '../../config/config';

export const CANARY_TIMEOUT_MS = 3000;

export interface Canary extends ListenAddress {
  /**
   * A refused connection counts as an answer: the host itself sent the refusal, so the path to it
   * works. Only for the default gateway, which is on the local link (a refusal from the far side of
   * the internet may come from a firewall in between).
   */
  refusedAnswers?: boolean;
  /** Where it came from, for log lines: e.g. `gateway`. */
  role?: string;
}

/** The canary's name in log lines, timeline lines and the blind rule: `1.1.1.1:443`, `[fd00::1]:53`. */
export function canaryKey(c: ListenAddress): string {
  return c.host.includes(':') ? `[${c.host}]:${c.port}` : `${c.host}:${c.port}`;
}

function answers(target: Canary, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(target.refusedAnswers === true && err.code === 'ECONNREFUSED'),
    );
  });
}

/** Probes every canary at once; one answer per canary, in order. */
export function probeCanaries(canaries: readonly Canary[], timeoutMs = CANARY_TIMEOUT_MS): Promise<boolean[]> {
  return Promise.all(canaries.map((c) => answers(c, timeoutMs)));
}
