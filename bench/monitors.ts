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

/**
 * `count` dependency edges (docs/dependencies.md) over bodies made by the functions here: the
 * first tenth of the edges' count are parents, and each of the next `count` monitors depends on
 * one of them by slug (10 dependants a parent), so a bulk create writes the edges with the
 * monitors. Fewer when there are not enough monitors.
 */
export function withEdges(bodies: readonly MonitorBody[], count: number): { bodies: MonitorBody[]; edges: number } {
  const parents = Math.max(1, Math.ceil(count / 10));
  const edges = Math.max(0, Math.min(count, bodies.length - parents));
  const out = bodies.map((b, i) =>
    i >= parents && i < parents + edges
      ? { ...b, depends_on: [`slug:${String(bodies[(i - parents) % parents].slug)}`] }
      : b,
  );
  return { bodies: out, edges };
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
