/** Settings factories with the defaults the monitors validator applies (spec: settings per kind). */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FakeClock } from '../../src/common/clock';
import type { CheckerEnv } from '../../src/probes/checkers/env';
import type {
  CheckContext,
  DnsSettings,
  HttpSettings,
  PingSettings,
  SmtpSettings,
  DockerSettings,
  MqttSettings,
  RedisSettings,
  PostgresSettings,
  MysqlSettings,
  TcpSettings,
  TlsSettings,
} from '../../src/probes/kinds';
import { KIND_DEFAULTS } from '../../src/monitors/monitor-defaults';

export const NOW = Date.UTC(2026, 0, 1);

export function makeEnv(ca?: string): CheckerEnv {
  return { clock: new FakeClock(NOW), ca };
}

export function makeCtx(over: Partial<CheckContext> = {}): CheckContext {
  return { timeout_ms: 3000, slow_ms: null, allow_private_targets: true, ...over };
}

export function makeHttp(url: string, over: Partial<HttpSettings> = {}): HttpSettings {
  // The defaults the monitors validator fills in (spec: settings per kind).
  return { url, ...structuredClone(KIND_DEFAULTS.http), ...over } as HttpSettings;
}

export function makeTcp(port: number, over: Partial<TcpSettings> = {}): TcpSettings {
  return { host: '127.0.0.1', port, send: null, expect_banner: null, ip_version: 'auto', ...over };
}

export function makePing(host: string, over: Partial<PingSettings> = {}): PingSettings {
  return { host, packets: 3, max_loss_pct: null, ip_version: 'auto', ...over };
}

export function makeDns(name: string, resolver: string, over: Partial<DnsSettings> = {}): DnsSettings {
  return { name, record: 'A', resolver, expect: null, ...over };
}

export function makeTls(port: number, over: Partial<TlsSettings> = {}): TlsSettings {
  return { host: '127.0.0.1', port, sni: null, tls_warn_days: 14, tls_verify: true, cert_sha256: null, ...over };
}

export function makeSmtp(port: number, over: Partial<SmtpSettings> = {}): SmtpSettings {
  return { host: '127.0.0.1', ...(structuredClone(KIND_DEFAULTS.smtp) as Omit<SmtpSettings, 'host'>), port, ...over };
}

export function makeDocker(container: string, endpoint: string, over: Partial<DockerSettings> = {}): DockerSettings {
  return {
    container,
    ...(structuredClone(KIND_DEFAULTS.docker) as Omit<DockerSettings, 'container'>),
    endpoint,
    ...over,
  };
}

export function makeRedis(url: string, over: Partial<RedisSettings> = {}): RedisSettings {
  return { url, ...(structuredClone(KIND_DEFAULTS.redis) as Omit<RedisSettings, 'url'>), ...over };
}

export function makeMqtt(url: string, over: Partial<MqttSettings> = {}): MqttSettings {
  return { url, ...(structuredClone(KIND_DEFAULTS.mqtt) as Omit<MqttSettings, 'url'>), ...over };
}

export function makePostgres(url: string, over: Partial<PostgresSettings> = {}): PostgresSettings {
  return { url, ...(structuredClone(KIND_DEFAULTS.postgres) as Omit<PostgresSettings, 'url'>), ...over };
}

export function makeMysql(url: string, over: Partial<MysqlSettings> = {}): MysqlSettings {
  return { url, ...(structuredClone(KIND_DEFAULTS.mysql) as Omit<MysqlSettings, 'url'>), ...over };
}

/** Wall time of an async call, in ms. */
/**
 * Runs `run` and reports how late this process's event loop ran meanwhile (the longest stall).
 * Upper bounds on measured times add it: on a busy 2-core machine a timer or socket callback can
 * run late for reasons that have nothing to do with the code under test, and a test that fails
 * then is noise. A real overrun (a deadline not enforced) is far larger than any stall.
 */
export async function timedWithStall<T>(run: () => Promise<T>): Promise<{ value: T; wallMs: number; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // The histogram records nothing until its second tick (the first only sets its reference), so
  // a stall right at the start (a collection as the check sets up, which then starts its timer
  // that much later) went unseen: once a 500 ms deadline answered at 832 ms with a longest stall
  // of 49 ms. Started once it has ticked, it sees every stall of the run.
  await new Promise((resolve) => setTimeout(resolve, 15));
  const start = performance.now();
  try {
    const value = await run();
    return { value, wallMs: performance.now() - start, stallMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
