/**
 * The agent's settings (`farsight agent`), read once at start from FARSIGHT_AGENT_* and the
 * service's own FARSIGHT_CANARIES and FARSIGHT_LOG_LEVEL. A bad value stops the start with one line
 * naming the variable (ConfigError: exit 2, as the service's). Pure but for reading `*_FILE`.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import {
  ConfigError,
  DEFAULT_CANARIES,
  ListenAddress,
  LogLevel,
  parseCanaries,
  parseLogLevel,
  readVar,
} from '../config/config';

export interface AgentConfig {
  /** The service's base URL without a trailing slash, e.g. `https://farsight.example.net`. */
  server: string;
  /** The location's token: the agent's only credential. Never logged. */
  token: string;
  spoolDir: string;
  /** The spool's bounds: past either, the oldest results are dropped (and counted). */
  spoolMaxResults: number;
  spoolMaxBytes: number;
  canaries: ListenAddress[];
  canaryDefaults: boolean;
  /** Extra trusted CA certificates (PEM) for the service's TLS certificate: a private CA. */
  caFile: string | null;
  logLevel: LogLevel;
}

export const DEFAULT_SPOOL_DIR = '/var/lib/farsight-agent';
export const DEFAULT_SPOOL_MAX_RESULTS = 10_000;
export const DEFAULT_SPOOL_MAX_BYTES = 10_000_000;
/** Below these a spool cannot hold one full batch of a busy minute; above, it is a mistake of units. */
const SPOOL_RESULTS_RANGE = [10, 10_000_000] as const;
const SPOOL_BYTES_RANGE = [64_000, 10_000_000_000] as const;
const TOKEN_MAX_CHARS = 512;

type Env = Record<string, string | undefined>;

export function loadAgentConfig(env: Env = process.env): AgentConfig {
  const get = (name: string): string | undefined => readVar(env, name);
  const serverText = get('FARSIGHT_AGENT_SERVER');
  if (serverText === undefined)
    throw new ConfigError(
      'FARSIGHT_AGENT_SERVER is not set: give the service address the Locations page shows, e.g. https://farsight.example.net',
    );
  const token = get('FARSIGHT_AGENT_TOKEN');
  if (token === undefined)
    throw new ConfigError(
      'FARSIGHT_AGENT_TOKEN is not set: give the token shown once when the location was added (or rotated)',
    );
  const caFile = get('FARSIGHT_AGENT_CA_FILE');
  return {
    server: parseServerUrl(serverText),
    token: parseToken(token),
    spoolDir: path.resolve(get('FARSIGHT_AGENT_SPOOL_DIR') ?? DEFAULT_SPOOL_DIR),
    spoolMaxResults: parseCount(
      'FARSIGHT_AGENT_SPOOL_MAX_RESULTS',
      get('FARSIGHT_AGENT_SPOOL_MAX_RESULTS'),
      DEFAULT_SPOOL_MAX_RESULTS,
      SPOOL_RESULTS_RANGE,
    ),
    spoolMaxBytes: parseBytes('FARSIGHT_AGENT_SPOOL_MAX_BYTES', get('FARSIGHT_AGENT_SPOOL_MAX_BYTES')),
    canaries: parseCanaries(get('FARSIGHT_CANARIES') ?? DEFAULT_CANARIES),
    canaryDefaults: get('FARSIGHT_CANARIES') === undefined,
    caFile: caFile === undefined ? null : readableFile('FARSIGHT_AGENT_CA_FILE', caFile),
    logLevel: parseLogLevel(get('FARSIGHT_LOG_LEVEL') ?? 'info'),
  };
}

/**
 * An http(s) base URL. Plain http only to a loopback address: the agent's token and the monitors'
 * secrets travel on this connection, and http elsewhere would hand them to anyone on the path.
 */
export function parseServerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`FARSIGHT_AGENT_SERVER: not a URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError('FARSIGHT_AGENT_SERVER: must be an https URL (http only on loopback)');
  if (url.username || url.password || text.includes('?') || text.includes('#'))
    throw new ConfigError('FARSIGHT_AGENT_SERVER: must not carry credentials, a query or a fragment');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new ConfigError(
      `FARSIGHT_AGENT_SERVER: http is only allowed to a loopback address (the token and the monitors' secrets would cross the network in clear); use https://${url.host}${url.pathname === '/' ? '' : url.pathname}`,
    );
  return url.toString().replace(/\/+$/, '');
}

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

function parseToken(text: string): string {
  // Never echo the value: a wrong token is still a secret.
  if (text.length > TOKEN_MAX_CHARS || /[\s\x00-\x1f\x7f]/.test(text))
    throw new ConfigError(
      `FARSIGHT_AGENT_TOKEN: not a token (at most ${TOKEN_MAX_CHARS} characters, no spaces or control characters); copy it again from the Locations page`,
    );
  return text;
}

function parseCount(name: string, text: string | undefined, fallback: number, [min, max]: readonly number[]): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/[_,]/g, ''));
  if (!/^[\d_,]+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`${name}: expected a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** `10MB`, `512 KB`, `1GiB` or a number of bytes. */
export function parseBytes(name: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_SPOOL_MAX_BYTES;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  const [min, max] = SPOOL_BYTES_RANGE;
  const n = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!(n >= min && n <= max))
    throw new ConfigError(
      `${name}: expected a size from 64KB to 10GB (a number of bytes, or with KB, MB, GB, KiB, MiB, GiB), got "${text}"`,
    );
  return n;
}

function readableFile(name: string, file: string): string {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new ConfigError(`${name}: cannot read ${file}`);
  }
  return path.resolve(file);
}
