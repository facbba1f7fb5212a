/**
 * Which channels an alert goes to, whether it goes at all, and when a message is tried again.
 * Pure; the rules are in docs/alerts.md.
 */
import type { AlertCauseKind } from '../engine/alerts/alert-causes';
import type { AlertEventType } from './channel-kind';
import { isMutedAt } from '../probes/status';

/** A channel as the rules see it. */
export interface ChannelTarget {
  id: number;
  enabled: boolean;
  events: readonly AlertEventType[];
}

/** The monitor's alert settings as the rules see them. */
export interface MonitorAlerting {
  /** null: every enabled channel; []: nobody; else these ids. */
  channels: readonly number[] | null;
  alert_on_slow: boolean;
  /** Epoch ms; alerts are held back while it is in the future. */
  muted_until: number | null;
  paused: boolean;
}

/** What the engine reports (`slow_end`: the return to normal, a `slow` event), and reminders. */
export type AlertCause = AlertCauseKind | 'reminder';

export type AlertDecision =
  /** Sent to these channels (possibly none: nobody subscribed). */
  | { kind: 'send'; type: AlertEventType; channelIds: number[] }
  /** Held back: the monitor is muted (the incident timeline says so). */
  | { kind: 'muted'; type: AlertEventType }
  /** Held back while the monitor flaps (the incident timeline says so; the engine sends it if it settles there). */
  | { kind: 'held'; type: AlertEventType }
  /** Not an alert in this situation (slow without alert_on_slow, a reminder while flapping, paused). */
  | { kind: 'none' };

const TYPE_OF: Record<AlertCause, AlertEventType> = {
  down: 'down',
  up: 'up',
  slow: 'slow',
  slow_end: 'slow',
  flapping: 'flapping',
  cert: 'cert',
  reminder: 'reminder',
  // A monitor joining an outage is news about that outage: it goes where the cause's down alerts go.
  affected: 'down',
};

/**
 * One monitor's cause against the channels. `held`: the engine held this up or down back because
 * the monitor flaps (engine/alerts/alert-hold.ts: it is delivered when the monitor settles), or, for a
 * reminder, the monitor flaps now (reminders pause and resume when it settles).
 */
export function decideAlert(
  cause: AlertCause,
  monitor: MonitorAlerting,
  held: boolean,
  channels: readonly ChannelTarget[],
  now: number,
): AlertDecision {
  if (monitor.paused) return { kind: 'none' };
  if ((cause === 'slow' || cause === 'slow_end') && !monitor.alert_on_slow) return { kind: 'none' };
  if (cause === 'reminder' && held) return { kind: 'none' };
  const type = TYPE_OF[cause];
  if ((cause === 'down' || cause === 'up') && held) return { kind: 'held', type };
  if (isMutedAt(monitor.muted_until, now)) return { kind: 'muted', type };
  return { kind: 'send', type, channelIds: channelsFor(monitor.channels, type, channels) };
}

/** The incident's `alert` line for an up or down that goes to no channel, or null when it is sent (or says nothing). */
export function unsentLine(name: string, d: AlertDecision): string | null {
  if (d.kind === 'muted') return `${d.type} alert not sent: ${name} is muted`;
  if (d.kind === 'held') {
    return d.type === 'down'
      ? `down alert held: ${name} is flapping; it is sent if ${name} is still down when it settles`
      : `up alert held: ${name} is flapping; it is sent if ${name} is up when it settles`;
  }
  // A down that reaches nobody says so; an up that reaches nobody follows such a down, or a choice.
  if (d.kind === 'send' && d.channelIds.length === 0 && d.type === 'down')
    return `down alert not sent: no enabled channel takes down alerts for ${name}`;
  return null;
}

/** The channels that take an event of `type` for a monitor with these `channels` settings. */
export function channelsFor(
  wanted: readonly number[] | null,
  type: AlertEventType,
  channels: readonly ChannelTarget[],
): number[] {
  const chosen = wanted === null ? channels : channels.filter((c) => wanted.includes(c.id));
  return chosen.filter((c) => c.enabled && c.events.includes(type)).map((c) => c.id);
}

/** The service's own notices go to every enabled channel that takes `notice`. */
export function noticeChannels(channels: readonly ChannelTarget[]): number[] {
  return channelsFor(null, 'notice', channels);
}

/** Events that arrive within this long of a message's first event go out in that message. */
export const BATCH_MS = 20_000;

/** docs/alerts.md "Retries": after the first try, 30 s, 2 min, 10 min, 30 min, 2 h; 6 tries, then failed. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000] as const;
export const MAX_TRIES = RETRY_DELAYS_MS.length + 1;

/** When to try again after `tries` failed tries, or null when it is time to give up. */
export function retryAt(tries: number, now: number): number | null {
  if (tries < 1 || tries >= MAX_TRIES) return null;
  return now + RETRY_DELAYS_MS[tries - 1];
}

/** Next reminder while Down: every remind_every_min from the moment Down was confirmed; null when off. */
export function nextReminder(downAt: number, everyMin: number, now: number): number | null {
  if (everyMin <= 0) return null;
  const every = everyMin * 60_000;
  const n = Math.floor(Math.max(0, now - downAt) / every) + 1;
  return downAt + n * every;
}
