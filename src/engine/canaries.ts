/** TCP canaries: can this machine reach the outside world at all? */
import * as net from 'node:net';
import type { ListenAddress } from '../config/config';

export const CANARY_TIMEOUT_MS = 3000;

function reachable(target: ListenAddress, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when at least one canary answers; false when none does (the service is blind). */
export async function anyCanaryReachable(canaries: ListenAddress[], timeoutMs = CANARY_TIMEOUT_MS): Promise<boolean> {
  if (canaries.length === 0) return true;
  const results = await Promise.all(canaries.map((c) => reachable(c, timeoutMs)));
  return results.some(Boolean);
}
