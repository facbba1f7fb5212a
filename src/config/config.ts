/**
 * The operator contract: every FARSIGHT_* variable parsed and validated once at start.
 * A bad value stops the start with one line that names the variable (ConfigError).
 * Secrets may also come from `<NAME>_FILE` (systemd credentials).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export class ConfigError extends Error {}

export interface ListenAddress {
  host: string;
  port: number;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/**
 * Where the public URL comes from: FARSIGHT_PUBLIC_URL, the address saved at first-run setup
 * (settings/public-url.ts), or neither (`http://localhost:<port>`, and requests are then also
 * accepted from their own origin: auth/sessions/origin-rule.ts).
 */
export type PublicUrlSource = 'env' | 'setting' | 'default';

export interface AppConfig {
  dataDir: string;
  listen: ListenAddress;
  /** Normalised, no trailing slash, e.g. `https://status.example.com`. */
  publicUrl: string;
  /** `https://status.example.com` */
  publicOrigin: string;
  /**
   * The public URL and its origin are the one place every reader takes them from; they change
   * once at most while the service runs, when setup saves an address (adoptSavedPublicUrl).
   */
  publicUrlSource: PublicUrlSource;
  httpsListen: ListenAddress | null;
  acmeHttpListen: ListenAddress | null;
  acmeDirectory: string;
  acmeCaFile: string | null;
  dnsServers: string[] | null;
  smtp: string | null;
  smtpFallback: string | null;
  mailFrom: string;
  /** Empty = blind detection off. */
  canaries: ListenAddress[];
  /**
   * FARSIGHT_CANARIES is unset: the default canaries are in use, and the blind gate adds the local
   * gateway and resolvers to them. An explicit list is used exactly as given.
   */
  canaryDefaults: boolean;
  trustProxy: string[];
  /** FARSIGHT_SERVER_IPS: the addresses this server is reached at (`server_ips`); null = discovered. */
  serverIps: string[] | null;
  challenge: { siteKey: string; secret: string; verifyUrl: string } | null;
  logLevel: LogLevel;
  /**
   * FARSIGHT_SECRET_KEY_FILE: the key that seals monitor secrets in the database, or null for
   * `<dataDir>/secret.key` (created on first start). Only the path: the key is read at start.
   */
  secretKeyFile: string | null;
  /**
   * The fixed API addresses of hosted alert services (channels of kind pushover and pagerduty
   * name no server): FARSIGHT_PUSHOVER_API and FARSIGHT_PAGERDUTY_API point them at a proxy, an
   * EU endpoint or a test receiver.
   */
  serviceApis: { pushover: string; pagerduty: string };
  /**
   * FARSIGHT_REFUSE_ROOT: commands that open the data dir stop when run as root. Off by default;
   * the OCI image turns it on, where root would leave files the image's user cannot open.
   */
  refuseRoot: boolean;
}

export const PUSHOVER_API = 'https://api.pushover.net/1/messages.json';
export const PAGERDUTY_API = 'https://events.pagerduty.com/v2/enqueue';

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
export const DEFAULT_CANARIES = '1.1.1.1:443,8.8.8.8:443,9.9.9.9:443';
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): AppConfig {
  const get = (name: string): string | undefined => readVar(env, name);
  const listen = readListen(env);
  // The default follows the port actually listened on, or the setup link printed at start is wrong.
  const publicUrl = parsePublicUrl(get('FARSIGHT_PUBLIC_URL') ?? `http://localhost:${listen.port}`);
  const siteKey = get('FARSIGHT_CHALLENGE_SITE_KEY');
  const secret = get('FARSIGHT_CHALLENGE_SECRET');
  if (Boolean(siteKey) !== Boolean(secret)) {
    throw new ConfigError('FARSIGHT_CHALLENGE_SITE_KEY and FARSIGHT_CHALLENGE_SECRET must be set together');
  }
  return {
    dataDir: path.resolve(get('FARSIGHT_DATA_DIR') || './data'),
    listen,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    publicUrlSource: get('FARSIGHT_PUBLIC_URL') === undefined ? 'default' : 'env',
    httpsListen: optional(get('FARSIGHT_HTTPS_LISTEN'), (v) => parseListen('FARSIGHT_HTTPS_LISTEN', v)),
    acmeHttpListen: optional(get('FARSIGHT_ACME_HTTP_LISTEN'), (v) => parseListen('FARSIGHT_ACME_HTTP_LISTEN', v)),
    acmeDirectory: parseHttpUrl('FARSIGHT_ACME_DIRECTORY', get('FARSIGHT_ACME_DIRECTORY') ?? LETS_ENCRYPT_DIRECTORY),
    acmeCaFile: optional(get('FARSIGHT_ACME_CA_FILE'), (v) => existingFile('FARSIGHT_ACME_CA_FILE', v)),
    dnsServers: optional(get('FARSIGHT_DNS_SERVERS'), (v) => parseDnsServers(v)),
    smtp: optional(get('FARSIGHT_SMTP'), (v) => parseSmtpUrl('FARSIGHT_SMTP', v)),
    smtpFallback: optional(get('FARSIGHT_SMTP_FALLBACK'), (v) => parseSmtpUrl('FARSIGHT_SMTP_FALLBACK', v)),
    mailFrom: parseMailFrom(get('FARSIGHT_MAIL_FROM') ?? 'Farsight <farsight@localhost>'),
    canaries: parseCanaries(get('FARSIGHT_CANARIES') ?? DEFAULT_CANARIES),
    canaryDefaults: get('FARSIGHT_CANARIES') === undefined,
    serviceApis: {
      pushover: parseHttpUrl('FARSIGHT_PUSHOVER_API', get('FARSIGHT_PUSHOVER_API') ?? PUSHOVER_API),
      pagerduty: parseHttpUrl('FARSIGHT_PAGERDUTY_API', get('FARSIGHT_PAGERDUTY_API') ?? PAGERDUTY_API),
    },
    trustProxy: optional(get('FARSIGHT_TRUST_PROXY'), parseTrustProxy) ?? [],
    serverIps: optional(get('FARSIGHT_SERVER_IPS'), parseServerIps),
    challenge:
      siteKey && secret
        ? {
            siteKey,
            secret,
            verifyUrl: parseHttpUrl(
              'FARSIGHT_CHALLENGE_VERIFY_URL',
              get('FARSIGHT_CHALLENGE_VERIFY_URL') ?? TURNSTILE_VERIFY_URL,
            ),
          }
        : null,
    logLevel: parseLogLevel(get('FARSIGHT_LOG_LEVEL') ?? 'info'),
    secretKeyFile: secretKeyFile(env),
    refuseRoot: parseSwitch('FARSIGHT_REFUSE_ROOT', get('FARSIGHT_REFUSE_ROOT') ?? 'off'),
  };
}

/** on/off, 1/0, true/false, yes/no, any case. */
export function parseSwitch(name: string, text: string): boolean {
  const v = text.toLowerCase();
  if (['on', '1', 'true', 'yes'].includes(v)) return true;
  if (['off', '0', 'false', 'no'].includes(v)) return false;
  throw new ConfigError(`${name}: expected on or off (1/0, true/false, yes/no), got "${text}"`);
}

/**
 * The one line that stops a command run as root where FARSIGHT_REFUSE_ROOT is on, or null. Pure:
 * the effective uid is given.
 */
export function rootRefusal(config: Pick<AppConfig, 'refuseRoot' | 'dataDir'>, euid: number | null): string | null {
  if (!config.refuseRoot || euid !== 0) return null;
  return (
    `running as root is refused (FARSIGHT_REFUSE_ROOT is on): files root writes in ${config.dataDir} ` +
    'could not be opened by the service user afterwards; run as the farsight user ' +
    '(in a container: without --user 0), or set FARSIGHT_REFUSE_ROOT=off'
  );
}

/**
 * Makes a public URL saved at first-run setup the effective one, unless FARSIGHT_PUBLIC_URL is set
 * (the variable always wins). Changes the shared config object in place: every reader sees it.
 */
export function adoptSavedPublicUrl(config: AppConfig, saved: string): void {
  if (config.publicUrlSource === 'env') return;
  const url = parseSavedPublicUrl(saved);
  config.publicUrl = url;
  config.publicOrigin = new URL(url).origin;
  config.publicUrlSource = 'setting';
}

/** The saved value, checked as FARSIGHT_PUBLIC_URL is (a hand-edited row fails the start the same way). */
export function parseSavedPublicUrl(text: string): string {
  try {
    return parsePublicUrl(text);
  } catch (err) {
    if (err instanceof ConfigError)
      throw new ConfigError(
        err.message.replace('FARSIGHT_PUBLIC_URL', 'the public URL saved at setup (settings row public_url)'),
      );
    throw err;
  }
}

/**
 * The key may only come from a file (FARSIGHT_SECRET_KEY_FILE, e.g. a systemd credential): a key in
 * the environment shows in /proc/<pid>/environ and in whatever dumps a process's environment.
 * Its content (raw or text) is read at start, not here.
 */
function secretKeyFile(env: Env): string | null {
  if (env.FARSIGHT_SECRET_KEY !== undefined && env.FARSIGHT_SECRET_KEY.trim() !== '') {
    throw new ConfigError(
      'FARSIGHT_SECRET_KEY: the key is not read from the environment; put it in a file and set FARSIGHT_SECRET_KEY_FILE',
    );
  }
  const file = env.FARSIGHT_SECRET_KEY_FILE?.trim();
  if (!file) return null;
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new ConfigError(`FARSIGHT_SECRET_KEY_FILE: cannot read ${file}`);
  }
  return path.resolve(file);
}

/** `NAME` or the contents of the file named by `NAME_FILE`; empty means unset. */
export function readVar(env: Env, name: string): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct.trim() !== '') return direct.trim();
  const file = env[`${name}_FILE`];
  if (file !== undefined && file.trim() !== '') {
    try {
      return fs.readFileSync(file.trim(), 'utf8').trim();
    } catch {
      throw new ConfigError(`${name}_FILE: cannot read ${file.trim()}`);
    }
  }
  return undefined;
}

function optional<T>(value: string | undefined, parse: (v: string) => T): T | null {
  return value === undefined ? null : parse(value);
}

/** FARSIGHT_LISTEN (or FARSIGHT_LISTEN_FILE) and its default; `farsight health` reads it alone. */
export function readListen(env: Env): ListenAddress {
  return parseListen('FARSIGHT_LISTEN', readVar(env, 'FARSIGHT_LISTEN') ?? '0.0.0.0:8080');
}

/** `host:port`, `:port`, `[v6]:port` or a bare port. */
export function parseListen(name: string, text: string): ListenAddress {
  const bad = (): never => {
    throw new ConfigError(`${name}: expected host:port, :port or [ipv6]:port, got "${text}"`);
  };
  let host = '0.0.0.0';
  let portText: string;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) {
    host = v6[1];
    portText = v6[2];
    if (net.isIPv6(host) === false) bad();
  } else if (/^\d+$/.test(text)) {
    portText = text;
  } else {
    const i = text.lastIndexOf(':');
    if (i < 0) return bad();
    if (i > 0) host = text.slice(0, i);
    portText = text.slice(i + 1);
    if (host.includes(':') || !/^[A-Za-z0-9.-]+$/.test(host)) bad();
  }
  const port = Number(portText);
  if (!/^\d+$/.test(portText)) bad();
  if (port < 1 || port > 65535)
    throw new ConfigError(`${name}: port ${portText} is out of range (1-65535), in "${text}"`);
  return { host, port };
}

function parseHttpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name}: not a URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name}: must be an http or https URL`);
  }
  return url.toString();
}

function parsePublicUrl(text: string): string {
  const url = new URL(parseHttpUrl('FARSIGHT_PUBLIC_URL', text));
  // A bare "?" or "#" leaves search and hash empty, so look at the text as well.
  if (text.includes('?') || text.includes('#') || url.username || url.password) {
    throw new ConfigError('FARSIGHT_PUBLIC_URL: must not carry credentials, a query or a fragment');
  }
  return url.toString().replace(/\/+$/, '');
}

function existingFile(name: string, file: string): string {
  if (!fs.existsSync(file)) throw new ConfigError(`${name}: no such file: ${file}`);
  return path.resolve(file);
}

function parseDnsServers(text: string): string[] {
  const servers = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of servers) {
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s) ?? [s, s, undefined];
    const port = m[2] === undefined ? 53 : Number(m[2]);
    if (!net.isIP(m[1]) || port < 1 || port > 65535) {
      throw new ConfigError(`FARSIGHT_DNS_SERVERS: "${s}" is not an IP address with an optional port (1-65535)`);
    }
  }
  if (servers.length === 0) throw new ConfigError('FARSIGHT_DNS_SERVERS: empty list');
  return servers;
}

function parseSmtpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name}: not a URL (expected smtp://user:pass@host:port or smtps://...)`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`${name}: must start with smtp:// or smtps://`);
  }
  if (!url.hostname) throw new ConfigError(`${name}: missing host`);
  return text;
}

function parseMailFrom(text: string): string {
  // A line break would let the value add mail headers of its own.
  if (/[\x00-\x1f\x7f]/.test(text)) throw new ConfigError('FARSIGHT_MAIL_FROM: must not contain control characters');
  const address = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(text)?.[1] ?? text;
  if (!/^[^@\s<>]+@[^@\s<>]+$/.test(address)) {
    throw new ConfigError(`FARSIGHT_MAIL_FROM: expected "Name <user@host>" or user@host`);
  }
  return text;
}

/** What FARSIGHT_CANARIES takes, said with every refusal ("no", "false" and "0" are not "off"). */
const CANARIES_ACCEPTED = 'expected "off" (blind detection off) or a comma-separated list of host:port';

export function parseCanaries(text: string): ListenAddress[] {
  if (text.toLowerCase() === 'off') return [];
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(`FARSIGHT_CANARIES: empty; ${CANARIES_ACCEPTED}`);
  return items.map((item) => {
    if (/^\d+$/.test(item) || item.startsWith(':')) {
      throw new ConfigError(`FARSIGHT_CANARIES: "${item}" needs a host; ${CANARIES_ACCEPTED}`);
    }
    try {
      return parseListen('FARSIGHT_CANARIES', item);
    } catch (err) {
      if (err instanceof ConfigError && / out of range /.test(err.message)) throw err;
      throw new ConfigError(`FARSIGHT_CANARIES: "${item}" is not host:port; ${CANARIES_ACCEPTED}`);
    }
  });
}

function parseServerIps(text: string): string[] {
  const ips = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ips.find((ip) => !net.isIP(ip));
  if (bad !== undefined) throw new ConfigError(`FARSIGHT_SERVER_IPS: "${bad}" is not an IP address`);
  if (ips.length === 0) throw new ConfigError('FARSIGHT_SERVER_IPS: empty list');
  return ips;
}

function parseTrustProxy(text: string): string[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (item === 'loopback') continue;
    const parts = item.split('/');
    const [ip, bits] = parts;
    const family = net.isIP(ip);
    const max = family === 6 ? 128 : 32;
    if (parts.length > 2 || !family || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
      throw new ConfigError(`FARSIGHT_TRUST_PROXY: "${item}" is not a CIDR, an IP or "loopback"`);
    }
  }
  return items;
}

export function parseLogLevel(text: string): LogLevel {
  const level = text.toLowerCase();
  if (level === 'error' || level === 'warn' || level === 'info' || level === 'debug') return level;
  throw new ConfigError(`FARSIGHT_LOG_LEVEL: expected error, warn, info or debug, got "${text}"`);
}
