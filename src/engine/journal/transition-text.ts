/** The timeline line of a state transition: its kind and its words. Pure; the one place this wording lives. */
import { formatDuration } from '../../common/time';
import type { EventKind } from '../../events/event-kinds';
import type { EndReason } from '../../events/incident';
import type { Transition } from '../../probes/status';

/** Why an incident ended, in words. */
export const CLOSE_WORDS: Record<EndReason, string> = {
  recovered: 'the monitor recovered',
  paused: 'the monitor was paused',
  deleted: 'the monitor was deleted',
  config_changed: "the monitor's kind or target changed",
};

/** The timeline line a transition writes, or null for those that write none (their cause has its own line). */
export function transitionLine(name: string, t: Transition): { kind: EventKind; text: string } | null {
  const text = describeTransition(name, t);
  if (text === null) return null;
  if (t.kind === 'paused' || t.kind === 'unknown') return null;
  return { kind: t.kind === 'up' && !t.recovered ? 'first_up' : t.kind, text };
}

function describeTransition(name: string, t: Transition): string | null {
  switch (t.kind) {
    case 'failing':
      return `${name}: first failed check${t.error ? ` (${t.error.message})` : ''}`;
    case 'down':
      return `${name} is down after ${t.fails} failed check${t.fails === 1 ? '' : 's'}${t.error ? `: ${t.error.message}` : ''}`;
    case 'up':
      return t.recovered ? `${name} is up again after ${formatDuration(t.at - t.downSince)} down` : `${name} is up`;
    case 'slow':
      return `${name} is slow`;
    case 'slow_end':
      return `${name} is back to normal speed`;
    case 'flapping':
      return t.on ? `${name} is flapping (changing status often)` : `${name} stopped flapping`;
    case 'paused':
      return null; // the configuration change already has its own line
    case 'unknown':
      return null;
    case 'closed':
      return `${name}: incident ended without recovery (${CLOSE_WORDS[t.reason]})`;
  }
}
