/**
 * Rules of the settings of the kinds that check a service by its own protocol (smtp, docker) that
 * need parsing beyond the DTO's types and bounds. Pure: returns field errors, changes nothing.
 */
import type { FieldError } from '../common/http/api-error';
import { isMask } from '../common/secrets/secrets';
import { KeepRule, keepSecrets } from '../common/secrets/secret-fields';
import { KIND_SECRETS } from '../probes/kind-secrets';
import type { GrpcSettings, MonitorKind } from '../probes/kinds';
import { parseGrpcTarget } from '../probes/services/grpc-health';
import { forceSecretHeaders } from './secrets';
import { isContainerRef, parseDockerEndpoint } from '../probes/services/docker-endpoint';
import { parseServiceUrl, UrlRules, urlWithoutPassword } from '../probes/services/service-url';
import { MQTT_URL, MYSQL_URL, POSTGRES_URL, REDIS_URL } from '../probes/services/url-rules';
import { readOnlyProblem } from '../probes/services/sql-statement';
import type { MonitorDto } from './dto/monitor.dto';
import type { JsonRuleDto } from './dto/kind-settings.dto';

type Add = (field: string, message: string) => void;
/** The rules monitor-rules.ts owns and these kinds share (passed in: that file imports this one). */
export interface SharedRules {
  isHostOrIp: (text: string) => boolean;
  jsonRuleErrors: (rule: JsonRuleDto, path: string, add: Add) => void;
}

/** The kinds whose target is a connection URL with a password of its own (the secret). */
export const URL_KINDS: Partial<Record<MonitorKind, UrlRules>> = {
  redis: REDIS_URL,
  postgres: POSTGRES_URL,
  mysql: MYSQL_URL,
  mqtt: MQTT_URL,
};

/** Settings of a URL kind: the URL (no password in it once normalised) and its password. */
interface UrlSettings {
  url: string;
  password: string | null;
  tls: string;
}

const HOST_MESSAGE =
  'must be a host name or an IP address (names are ASCII: write an internationalised name in its xn-- form)';

export function serviceRuleErrors(m: MonitorDto, kind: MonitorKind, shared: SharedRules): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  if (kind === 'smtp' && m.smtp) {
    if (!shared.isHostOrIp(m.smtp.host)) add('smtp.host', HOST_MESSAGE);
  }
  const urlRules = URL_KINDS[kind];
  const urlSettings = m[kind as 'redis'] as UrlSettings | undefined;
  if (urlRules && urlSettings) {
    const url = parseServiceUrl(urlSettings.url, urlRules);
    if (typeof url === 'string') add(`${kind}.url`, url);
    else if ((url.scheme === 'rediss' || url.scheme === 'mqtts') && urlSettings.tls === 'off')
      add(
        `${kind}.tls`,
        `${url.scheme}:// is TLS: set tls to require or verify (or write ${url.scheme.slice(0, -1)}://)`,
      );
  }
  if (kind === 'mqtt' && m.mqtt) mqttErrors(m.mqtt, add, shared);
  if (kind === 'grpc' && m.grpc) grpcErrors(m.grpc, add);
  if (kind === 'postgres' && m.postgres) {
    const problem = readOnlyProblem(m.postgres.query, 'postgres');
    if (problem) add('postgres.query', problem);
  }
  if (kind === 'mysql' && m.mysql) {
    const problem = readOnlyProblem(m.mysql.query, 'mysql');
    if (problem) add('mysql.query', problem);
  }
  if (kind === 'docker' && m.docker) {
    const endpoint = parseDockerEndpoint(m.docker.endpoint);
    if (typeof endpoint === 'string') add('docker.endpoint', endpoint);
    if (!isContainerRef(m.docker.container))
      add('docker.container', "must be a container's name or id: letters, digits, _ . - (and no / inside)");
  }
  return errors;
}

function mqttErrors(s: NonNullable<MonitorDto['mqtt']>, add: Add, shared: SharedRules): void {
  if (s.topic !== null) {
    const problem = topicFilterProblem(s.topic);
    if (problem) add('mqtt.topic', problem);
  }
  if (s.topic === null && s.expect !== null) add('mqtt.expect', 'needs a topic: the text is looked for in its message');
  if (s.topic === null && s.json.length > 0) add('mqtt.json', 'needs a topic: the rules judge its message');
  s.json.forEach((rule, i) => shared.jsonRuleErrors(rule, `mqtt.json[${i}]`, add));
  if (s.username !== null && /[\x00-\x1f\x7f]/.test(s.username))
    add('mqtt.username', 'must not contain control characters');
}

// Names gRPC reserves or HTTP/2 forbids in requests (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md).
const RESERVED_METADATA = new Set([
  'content-type',
  'te',
  'user-agent',
  'host',
  'connection',
  'transfer-encoding',
  'upgrade',
  'keep-alive',
  'proxy-connection',
]);

function grpcErrors(s: NonNullable<MonitorDto['grpc']>, add: Add): void {
  const target = parseGrpcTarget(s.target);
  if (typeof target === 'string') add('grpc.target', target);
  if (/[\x00-\x1f\x7f]/.test(s.service)) add('grpc.service', 'must not contain control characters');
  s.metadata.forEach((m, i) => {
    if (!/^[0-9a-z_.-]+$/.test(m.name))
      add(`grpc.metadata[${i}].name`, 'must be lowercase ASCII letters, digits, -, _ and .');
    else if (m.name.startsWith('grpc-') || RESERVED_METADATA.has(m.name))
      add(`grpc.metadata[${i}].name`, `${m.name} is set by gRPC itself`);
    else if (m.name.endsWith('-bin')) add(`grpc.metadata[${i}].name`, 'binary (-bin) metadata is not supported');
    if (!/^[\x20-\x7e]*$/.test(m.value)) add(`grpc.metadata[${i}].value`, 'must be printable ASCII');
  });
}

const SAME_GRPC_TARGET: KeepRule<GrpcSettings> = {
  sameDestination(next, prev) {
    const a = parseGrpcTarget(next.target);
    const b = parseGrpcTarget(prev.target);
    return (
      typeof a !== 'string' &&
      typeof b !== 'string' &&
      a.host.toLowerCase() === b.host.toLowerCase() &&
      a.port === b.port
    );
  },
  changedMessage: 'the target (host or port) changed: send the secret metadata again',
};

/**
 * Step 4 of monitor-input.ts for grpc: metadata whose names look like credentials are secret, and
 * ******** keeps a stored secret value only while the target stays (secret handling rule 2).
 */
export function normaliseGrpc(next: GrpcSettings, previous: GrpcSettings | null): FieldError[] {
  next.metadata = forceSecretHeaders(next.metadata.map((m) => ({ name: m.name, value: m.value, secret: m.secret })));
  return keepSecrets(next, previous, KIND_SECRETS.grpc, SAME_GRPC_TARGET, 'grpc');
}

/** MQTT 3.1.1 section 4.7: `#` alone as the last level, `+` alone in a level; no control characters. */
export function topicFilterProblem(topic: string): string | null {
  if (/[\x00-\x1f\x7f]/.test(topic)) return 'must not contain control characters';
  const levels = topic.split('/');
  for (const [i, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1))
      return '# stands alone as the last level (home/#)';
    if (level.includes('+') && level !== '+') return '+ stands alone in a level (home/+/state)';
  }
  return null;
}

const SAME_SERVER = (rules: UrlRules): KeepRule<UrlSettings> => ({
  sameDestination(next, prev) {
    const a = parseServiceUrl(next.url, rules);
    const b = parseServiceUrl(prev.url, rules);
    return (
      typeof a !== 'string' &&
      typeof b !== 'string' &&
      a.scheme === b.scheme &&
      a.host.toLowerCase() === b.host.toLowerCase() &&
      a.port === b.port
    );
  },
  changedMessage: 'the server (scheme, host or port of the URL) changed: send the password again',
});

/**
 * Step 4 of monitor-input.ts for a URL kind: a password written in the URL moves into `password`
 * (so the URL can be shown as it is), and ******** keeps the stored password only while the URL
 * names the same server (spec, secret handling rule 2). Mutates `next`; returns field errors.
 */
export function normaliseUrlSecret(kind: MonitorKind, next: UrlSettings, previous: UrlSettings | null): FieldError[] {
  const rules = URL_KINDS[kind];
  if (!rules) return [];
  const url = parseServiceUrl(next.url, rules);
  if (typeof url === 'string') return [];
  if (url.password !== null) {
    if (next.password !== null && !isMask(next.password))
      return [{ field: `${kind}.url`, message: 'a password is given both in the URL and in password; keep one' }];
    next.url = urlWithoutPassword(url, next.url);
    if (next.password === null || url.password !== '') next.password = url.password;
  }
  // mqtt's user name is a setting of its own too (the spec's), so its URL keeps only the server.
  if ('username' in next && url.username !== '') {
    const own = next as UrlSettings & { username: string | null };
    if (own.username !== null && own.username !== url.username)
      return [{ field: `${kind}.url`, message: 'a user name is given both in the URL and in username; keep one' }];
    own.username = url.username;
    next.url = next.url.replace(/^([a-z]+:\/\/)[^@]*@/i, '$1');
  }
  return keepSecrets(next, previous, KIND_SECRETS[kind], SAME_SERVER(rules), kind);
}
