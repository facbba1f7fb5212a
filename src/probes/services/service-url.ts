/**
 * The connection URL of a database kind (postgres, mysql, redis): `scheme://[user[:password]@]host[:port][/database]`,
 * parsed by hand so that nothing but these parts can reach a client library. Options in a query
 * string (`?sslmode=disable`, `?options=-c…`, `?host=/tmp`), host lists (`h1,h2`), sockets and
 * fragments are refused: TLS is the `tls` setting, and a URL that could say otherwise would let a
 * monitor's writer override it unseen. Pure.
 */
import { isIP } from 'node:net';

export interface ServiceUrl {
  scheme: string;
  host: string;
  port: number;
  /** Percent-decoded; '' when absent. */
  username: string;
  /** Percent-decoded; null when the URL has none. */
  password: string | null;
  /** Percent-decoded path without its `/`; '' when absent. */
  database: string;
}

export interface UrlRules {
  schemes: readonly string[];
  defaultPort: number;
  /** A scheme whose default port is another (mqtts: 8883). */
  schemePorts?: Readonly<Record<string, number>>;
  /** What the path may be: a database name, (redis) a database number, or (mqtt) nothing. */
  database: 'name' | 'number' | 'none';
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;
const URL_SHAPE =
  /^([a-z][a-z0-9+.-]*):\/\/(?:([^@/?#]*)@)?(\[[^\]/?#]*\]|[^:/?#@[\]]*)(?::([^/?#]*))?(?:\/([^?#]*))?$/i;

/** The parts, or a sentence saying what is wrong (never quoting the password). */
export function parseServiceUrl(text: string, rules: UrlRules): ServiceUrl | string {
  if (/[\x00-\x20\x7f]/.test(text)) return 'must not contain spaces or control characters';
  if (/[?#]/.test(text))
    return 'options in the URL (after ?) are not accepted: TLS is the tls setting (in a password, write ? as %3F and # as %23)';
  const m = URL_SHAPE.exec(text);
  const example = `${rules.schemes[0]}://user:password@host:${rules.defaultPort}${rules.database === 'name' ? '/database' : ''}`;
  if (!m) return `must look like ${example}`;
  const scheme = m[1].toLowerCase();
  if (!rules.schemes.includes(scheme)) return `must start with ${rules.schemes.map((s) => `${s}://`).join(' or ')}`;
  const host = m[3].startsWith('[') ? m[3].slice(1, -1) : m[3];
  if (host.includes(',')) return 'one host only: host lists are not accepted';
  if (host === '') return `must name a host: ${example}`;
  if (m[3].startsWith('[') ? isIP(host) !== 6 : !isIP(host) && !(HOST_NAME.test(host) && !/^[\d.]+$/.test(host)))
    return `${host} is not a host name or an IP address (names are ASCII: write an internationalised name in its xn-- form)`;
  const defaultPort = rules.schemePorts?.[scheme] ?? rules.defaultPort;
  const port = m[4] === undefined || m[4] === '' ? defaultPort : /^\d{1,5}$/.test(m[4]) ? Number(m[4]) : -1;
  if (port < 1 || port > 65535) return 'the port must be from 1 to 65535';
  const [rawUser, rawPassword] = splitUserInfo(m[2]);
  const username = decode(rawUser);
  const password = rawPassword === null ? null : decode(rawPassword);
  const database = decode(m[5] ?? '');
  if (username === null || (password === null && rawPassword !== null) || database === null)
    return 'has a broken %-escape';
  if (rules.database === 'none' && database !== '') return `takes no path: write ${scheme}://host:port`;
  if (database.includes('/')) return 'the database is one name, without /';
  if (rules.database === 'number' && database !== '' && !/^(?:\d|1[0-5])$/.test(database))
    return 'the path is a database number from 0 to 15, e.g. /0';
  return { scheme, host, port, username, password, database };
}

/** The URL without its password: what is stored, shown and compared (the password is a setting of its own). */
export function urlWithoutPassword(u: ServiceUrl, original: string): string {
  const at = original.indexOf('@');
  if (at < 0 || u.password === null) return original;
  const scheme = original.slice(0, original.indexOf('://') + 3);
  const userInfo = original.slice(scheme.length, at);
  const user = userInfo.split(':')[0];
  return `${scheme}${user === '' ? '' : `${user}@`}${original.slice(at + 1)}`;
}

function splitUserInfo(info: string | undefined): [string, string | null] {
  if (info === undefined) return ['', null];
  const colon = info.indexOf(':');
  return colon < 0 ? [info, null] : [info.slice(0, colon), info.slice(colon + 1)];
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
