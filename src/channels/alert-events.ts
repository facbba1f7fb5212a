/**
 * Alert events in words: what the engine reported (or a reminder, or a notice), turned into the
 * AlertEvent a channel sends. The one line per event lives here; senders build subjects and
 * bodies around it. Pure.
 */
import type { AlertCauseRecord } from '../engine/alerts/alert-causes';
import { formatDuration } from '../common/time';
import type { MonitorConfig } from '../probes/monitor-config';
import { describeTarget } from '../probes/target';
import type { AlertEvent, AlertEventType, AlertMonitor } from './channel-kind';
import { AFFECTED_NAMES, affectedWords, tallyOf } from './messages';

export function alertMonitor(id: number, c: MonitorConfig): AlertMonitor {
  return {
    id,
    name: c.name,
    slug: c.slug,
    group: c.group,
    target: describeTarget(c),
    url: c.kind === 'http' ? c.settings.url : null,
    description: c.description,
    runbook_url: c.runbook_url,
  };
}

/** The event of an engine change, for the alert type the rules chose. */
export function causeEvent(r: AlertCauseRecord, type: AlertEventType): AlertEvent {
  const name = r.config.name;
  const base = {
    type,
    at: r.at,
    monitor: alertMonitor(r.monitorId, r.config),
    // Downs and ups carry their incident: PagerDuty triggers and resolves by it.
    ...((r.cause === 'down' || r.cause === 'up') && r.incidentId !== null ? { incident_id: r.incidentId } : {}),
  };
  switch (r.cause) {
    case 'down':
      return {
        ...base,
        message: `${name} is down${r.error ? `: ${r.error.message}` : ''}${r.settled ? ' (it was flapping; this alert was held until it settled)' : ''}`,
        ...(r.durationMs !== undefined ? { duration_ms: r.durationMs } : {}),
        ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
      };
    case 'up':
      // A settled up does not know how long it was down (it flapped meanwhile): it says how long it has been up.
      if (r.settled)
        return {
          ...base,
          message: `${name} is up again: it stopped flapping and has been up for ${formatDuration(r.durationMs ?? 0)}`,
        };
      return {
        ...base,
        message: `${name} is up again after ${formatDuration(r.durationMs ?? 0)} down`,
        duration_ms: r.durationMs ?? 0,
      };
    case 'slow':
      return { ...base, message: `${name} is slow (slower than ${r.config.slow_ms} ms)` };
    case 'slow_end':
      return { ...base, message: `${name} is back to normal speed`, ended: true };
    case 'flapping':
      return r.on
        ? {
            ...base,
            message: `${name} is flapping: it changes status often; up and down alerts are held until it settles`,
          }
        : { ...base, message: `${name} stopped flapping`, ended: true };
    case 'affected':
      return {
        ...base,
        message: `${r.affected?.name ?? 'a monitor'} is down too, affected by the outage of ${name}`,
        affected: { count: 1, names: [r.affected?.name ?? ''], also: true },
      };
    case 'cert': {
      const days = Math.floor(((r.cert?.notAfter ?? r.at) - r.at) / 86_400_000);
      const date = new Date(r.cert?.notAfter ?? r.at).toISOString().slice(0, 10);
      return {
        ...base,
        message:
          days < 0
            ? `${name}: the certificate has expired (${date})`
            : `${name}: the certificate expires in ${days} day${days === 1 ? '' : 's'} (${date})`,
      };
    }
  }
}

/**
 * One outage, one line (docs/dependencies.md): in a batch, the events of monitors that joined an
 * outage fold into that outage's down event (or reminder) when the batch has one, and otherwise
 * into one "also affected" event per outage; so 1,000 dependants going down with their router
 * give each channel one line naming the router and the count.
 */
export function foldAffected(events: readonly AlertEvent[]): AlertEvent[] {
  const joins = new Map<number, { first: AlertEvent; names: string[] }>();
  const rest: AlertEvent[] = [];
  for (const e of events) {
    if (e.affected?.also && e.monitor) {
      const j = joins.get(e.monitor.id);
      if (j) j.names.push(...e.affected.names);
      else joins.set(e.monitor.id, { first: e, names: [...e.affected.names] });
    } else rest.push(e);
  }
  if (joins.size === 0) return [...events];
  const out: AlertEvent[] = [];
  for (const e of rest) {
    const j = e.monitor && (e.type === 'down' || e.type === 'reminder') ? joins.get(e.monitor.id) : undefined;
    if (!j) {
      out.push(e);
      continue;
    }
    joins.delete(e.monitor!.id);
    const names = [...(e.affected?.names ?? []), ...j.names];
    const affected = { count: (e.affected?.count ?? 0) + j.names.length, names: names.slice(0, AFFECTED_NAMES) };
    out.push({ ...e, message: `${e.message}; affected: ${affectedWords(affected)}`, affected });
  }
  for (const { first, names } of joins.values()) {
    const affected = { count: names.length, names: names.slice(0, AFFECTED_NAMES), also: true };
    out.push({
      ...first,
      message: `also affected by the outage of ${first.monitor!.name}: ${affectedWords(affected)}`,
      affected,
    });
  }
  return out;
}

/** A reminder while Down. */
export function reminderEvent(
  monitorId: number,
  c: MonitorConfig,
  downSince: number,
  now: number,
  error: { code: string; message: string } | null,
  incidentId?: number,
  /** The monitors still down with it because they depend on it (docs/dependencies.md). */
  affectedNames: readonly string[] = [],
): AlertEvent {
  const affected = affectedNames.length
    ? { count: affectedNames.length, names: affectedNames.slice(0, AFFECTED_NAMES) }
    : undefined;
  return {
    ...(incidentId !== undefined ? { incident_id: incidentId } : {}),
    type: 'reminder',
    at: now,
    monitor: alertMonitor(monitorId, c),
    message: `${c.name} is still down after ${formatDuration(now - downSince)}${error ? `: ${error.message}` : ''}${affected ? `; affected: ${affectedWords(affected)}` : ''}`,
    duration_ms: now - downSince,
    ...(error ? { error } : {}),
    ...(affected ? { affected } : {}),
  };
}

/** The owner acknowledged an open incident (queued for PagerDuty channels only). */
export function acknowledgedEvent(
  monitorId: number,
  c: MonitorConfig,
  incidentId: number,
  who: string,
  at: number,
): AlertEvent {
  return {
    type: 'acknowledged',
    at,
    monitor: alertMonitor(monitorId, c),
    message: `${c.name}: incident ${incidentId} acknowledged by ${who}`,
    incident_id: incidentId,
  };
}

/** One of the service's own notices (blind, offline, email paused). */
export function noticeEvent(message: string, at: number): AlertEvent {
  return { type: 'notice', at, monitor: null, message };
}

/** The delivery log's one-line summary of a message: its one event's line, or the batch's tally. */
export function summarize(events: readonly AlertEvent[], test = false): string {
  if (test) return 'test message';
  return events.length === 1 ? events[0].message : tallyOf([...events]);
}
