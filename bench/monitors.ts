/**
 * Monitor bodies for the benchmarks. The engine mix is 80 % http, 10 % tcp and 10 % dns, each
 * monitor aimed at its own farm endpoint so the farm can tell every monitor's checks apart.
 */
import type { Farm } from './farm';

export type MonitorBody = Record<string, unknown>;

/** How many of n mixed monitors are tcp (the farm needs one port for each). */
export function tcpCount(n: number): number {
  return Math.ceil(n / 10);
}

export function mixedMonitors(n: number, farm: Farm, intervalS: number): MonitorBody[] {
  let tcp = 0;
  const out: MonitorBody[] = [];
  for (let i = 0; i < n; i++) {
    const base = { name: `bench ${i}`, slug: `bench-${i}`, interval_s: intervalS };
    if (i % 10 === 0) {
      out.push({ ...base, kind: 'tcp', tcp: { host: '127.0.0.1', port: farm.tcpPorts[tcp++] } });
    } else if (i % 10 === 5) {
      out.push({ ...base, kind: 'dns', dns: { name: `e${i}.farm.test`, record: 'A', resolver: farm.resolver } });
    } else {
      out.push({ ...base, kind: 'http', http: { url: `${farm.url}/e/${i}` } });
    }
  }
  return out;
}

export function httpMonitors(n: number, farm: Farm, intervalS: number): MonitorBody[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `bench ${i}`,
    slug: `bench-${i}`,
    kind: 'http',
    interval_s: intervalS,
    http: { url: `${farm.url}/e/${i}` },
  }));
}

export function heartbeatMonitors(n: number): MonitorBody[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `bench job ${i}`,
    slug: `bench-job-${i}`,
    kind: 'heartbeat',
    interval_s: 60,
    heartbeat: { grace_s: 60 },
  }));
}
