/**
 * Agent protocol v1 as the agent speaks it (docs/agents.md): the answers of
 * `GET /api/agent/config` and `POST /api/agent/results` read as hostile input (a server answer
 * that does not fit is refused whole and nothing changes), and the results' body. Pure.
 */
import type { CheckResult } from '../probes/check-result';
import type { CheckTarget } from '../engine/check-once';
import { MONITOR_KINDS, type MonitorKind } from '../probes/kinds';

/** The protocol's limits on one POST /api/agent/results. */
export const MAX_RESULTS_PER_POST = 500;
export const MAX_POST_BYTES = 1_000_000;
/** The longest a config poll may wait on the service (wait_s 0-30). */
export const MAX_WAIT_S = 30;
/** More monitors than the service holds at its largest is an answer to refuse. */
const MAX_MONITORS = 100_000;
const MAX_INTERVAL_S = 7 * 86_400;
const MAX_TIMEOUT_S = 3_600;

/** One monitor the agent checks: what the scheduler and the checkers need, and nothing of the service's state. */
export type AgentMonitor = CheckTarget & {
  id: number;
  slug: string;
  name: string;
  interval_s: number;
  retry_interval_s: number;
  /** The service's setting (settings.allow_private_targets), sent with the assignment; absent: allowed, its default. */
  allow_private_targets: boolean;
};

export interface Assignment {
  revision: string;
  location: { id: number; name: string };
  /** The service's clock when it answered (epoch ms): a large gap to ours is worth a warning. */
  serverTime: number | null;
  monitors: AgentMonitor[];
  /** Monitors left out because their entry did not fit (a newer service's kind, a damaged entry). */
  skipped: { id: unknown; reason: string }[];
}

export class ProtocolError extends Error {}

/** One stored result as the agent sends it. */
export interface ResultItem {
  seq: number;
  monitor_id: number;
  at: string;
  result: CheckResult;
}

export interface ResultsBody {
  agent: { version: string; blind: boolean };
  results: ResultItem[];
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isId(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) > 0;
}

function textOf(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length <= max;
}

/** The answer of a 200 GET /api/agent/config, already parsed from JSON. */
export function parseAssignment(body: unknown): Assignment {
  if (!isObj(body)) throw new ProtocolError('the config answer is not a JSON object');
  const { revision, location, server_time, monitors, allow_private_targets } = body;
  if (!(textOf(revision, 64) && revision !== '') && !Number.isSafeInteger(revision))
    throw new ProtocolError('the config answer has no revision');
  if (!isObj(location) || !isId(location.id) || !textOf(location.name, 200))
    throw new ProtocolError('the config answer has no location {id, name}');
  if (!Array.isArray(monitors) || monitors.length > MAX_MONITORS)
    throw new ProtocolError(`the config answer's monitors is not a list of at most ${MAX_MONITORS}`);
  if (allow_private_targets !== undefined && typeof allow_private_targets !== 'boolean')
    throw new ProtocolError('the config answer has a bad allow_private_targets');
  const serverTime = typeof server_time === 'string' ? Date.parse(server_time) : NaN;
  const out: AgentMonitor[] = [];
  const skipped: { id: unknown; reason: string }[] = [];
  const seen = new Set<number>();
  for (const entry of monitors) {
    const parsed = parseMonitor(entry, allow_private_targets ?? true);
    if (typeof parsed === 'string') skipped.push({ id: isObj(entry) ? entry.id : undefined, reason: parsed });
    else if (seen.has(parsed.id)) skipped.push({ id: parsed.id, reason: 'listed twice' });
    else {
      seen.add(parsed.id);
      out.push(parsed);
    }
  }
  return {
    revision: String(revision),
    location: { id: location.id, name: location.name },
    serverTime: Number.isFinite(serverTime) ? serverTime : null,
    monitors: out,
    skipped,
  };
}

/** One monitor entry, or why it is left out (the reason names fields, never values: they may be secrets). */
export function parseMonitor(entry: unknown, allowPrivateTargets = true): AgentMonitor | string {
  if (!isObj(entry)) return 'not an object';
  const { id, slug, name, kind, interval_s, timeout_s, retry_interval_s, config } = entry;
  if (!isId(id)) return 'no id';
  if (!textOf(slug, 200) || !textOf(name, 500)) return 'no slug or name';
  if (typeof kind !== 'string' || !(MONITOR_KINDS as readonly string[]).includes(kind))
    return 'a kind this agent does not know (update the agent to the service version)';
  if (kind === 'heartbeat') return 'heartbeat monitors are received by the service, not checked';
  const seconds = (v: unknown, max: number): v is number => typeof v === 'number' && v > 0 && v <= max;
  if (!seconds(interval_s, MAX_INTERVAL_S) || !seconds(retry_interval_s, MAX_INTERVAL_S))
    return 'no interval_s or retry_interval_s';
  // timeout_ms is preferred when the service sends it (the monitor's own unit); else timeout_s.
  const timeoutMs = typeof entry.timeout_ms === 'number' ? entry.timeout_ms : Number(timeout_s) * 1000;
  if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_S * 1000)) return 'no timeout_s';
  const slow = entry.slow_ms;
  if (slow !== undefined && slow !== null && !(typeof slow === 'number' && slow >= 0)) return 'a bad slow_ms';
  const allowPrivate = entry.allow_private_targets;
  if (allowPrivate !== undefined && typeof allowPrivate !== 'boolean') return 'a bad allow_private_targets';
  if (!isObj(config)) return 'no config object';
  return {
    id,
    slug,
    name,
    kind: kind as Exclude<MonitorKind, 'heartbeat'>,
    // The service validated these settings when the owner saved them; a checker meeting a field of
    // the wrong type fails that one check, which the scheduler logs (agent-checks.ts).
    settings: config as never,
    interval_s,
    retry_interval_s,
    timeout_ms: Math.round(timeoutMs),
    slow_ms: typeof slow === 'number' && slow > 0 ? slow : null,
    allow_private_targets: allowPrivate ?? allowPrivateTargets,
  } as AgentMonitor;
}

export interface Ack {
  /** Every result at or below it is stored. */
  ackedSeq: number;
  /** Items the service acknowledged without counting them, and why (a monitor no longer assigned, a result it refused). */
  ignored: { seq: number; reason: string }[];
}

/** The answer of POST /api/agent/results. */
export function parseAck(body: unknown): Ack {
  if (!isObj(body) || !Number.isSafeInteger(body.acked_seq) || (body.acked_seq as number) < 0)
    throw new ProtocolError('the results answer has no acked_seq');
  const ignored = Array.isArray(body.ignored)
    ? body.ignored
        .filter((i): i is Obj => isObj(i) && Number.isSafeInteger(i.seq) && typeof i.reason === 'string')
        .slice(0, MAX_RESULTS_PER_POST)
        .map((i) => ({ seq: i.seq as number, reason: (i.reason as string).slice(0, 200) }))
    : [];
  return { ackedSeq: body.acked_seq as number, ignored };
}
