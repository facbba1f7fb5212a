/**
 * What a monitor watches, in words: the one-line `target` of an answer (e.g.
 * `GET https://example.com/health`) and the bare host named in network path notices. Pure.
 */
import type { KindConfig } from './monitor-config';
import { parseDockerEndpoint } from './services/docker-endpoint';
import { parseServiceUrl } from './services/service-url';
import { parseGrpcTarget } from './services/grpc-health';
import { MQTT_URL, MYSQL_URL, POSTGRES_URL, REDIS_URL } from './services/url-rules';

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function describeTarget(m: KindConfig): string {
  switch (m.kind) {
    case 'http':
      return `${m.settings.method} ${m.settings.url}`;
    case 'tcp':
      return `tcp ${hostPort(m.settings.host, m.settings.port)}`;
    case 'ping':
      return `ping ${m.settings.host}`;
    case 'dns':
      return `dns ${m.settings.record} ${m.settings.name} @${m.settings.resolver}`;
    case 'tls':
      return `tls ${hostPort(m.settings.host, m.settings.port)}`;
    case 'heartbeat':
      return 'heartbeat';
    case 'smtp':
      return `smtp ${hostPort(m.settings.host, m.settings.port)} (${m.settings.tls})`;
    case 'docker':
      return `docker ${m.settings.container} @ ${m.settings.endpoint}`;
    case 'redis':
      // The URL holds no password (it is a setting of its own), so it can be shown as it is.
      return `redis ${m.settings.url}${m.settings.tls === 'off' ? '' : ` (tls ${m.settings.tls})`}`;
    case 'postgres':
    case 'mysql':
      return `${m.kind} ${m.settings.url}${m.settings.tls === 'off' ? '' : ` (tls ${m.settings.tls})`}`;
    case 'grpc': {
      const tls = m.settings.tls === 'off' ? '' : ` (tls ${m.settings.tls})`;
      return `grpc ${m.settings.target}${m.settings.service === '' ? '' : ` ${m.settings.service}`}${tls}`;
    }
    case 'mqtt': {
      // Neither user nor password is in the stored URL: they are settings of their own.
      const tls = m.settings.tls === 'off' ? '' : ` (tls ${m.settings.tls})`;
      return `mqtt ${m.settings.url}${m.settings.topic === null ? '' : ` ${m.settings.topic}`}${tls}`;
    }
  }
}

/** The host a monitor talks to, for path notices: no path, no credentials. */
export function describeHost(m: KindConfig): string {
  switch (m.kind) {
    case 'http':
      try {
        return new URL(m.settings.url).host;
      } catch {
        return m.settings.url;
      }
    case 'dns':
      return m.settings.resolver;
    case 'heartbeat':
      return '';
    case 'grpc': {
      const target = parseGrpcTarget(m.settings.target);
      return typeof target === 'string' ? '' : target.host;
    }
    case 'docker': {
      // A unix socket is this machine: no network path to name.
      const endpoint = parseDockerEndpoint(m.settings.endpoint);
      return typeof endpoint === 'string' || endpoint.transport === 'unix' ? '' : endpoint.host;
    }
    case 'redis':
    case 'postgres':
    case 'mysql':
    case 'mqtt': {
      const url = parseServiceUrl(
        m.settings.url,
        { redis: REDIS_URL, postgres: POSTGRES_URL, mysql: MYSQL_URL, mqtt: MQTT_URL }[m.kind],
      );
      return typeof url === 'string' ? '' : url.host;
    }
    default:
      return m.settings.host;
  }
}
