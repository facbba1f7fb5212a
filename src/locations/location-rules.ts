/**
 * What the location routes accept and how a location's state is judged (docs/agents.md). Pure:
 * every problem is a field error, and the clock is the caller's.
 */
import { ApiError } from '../common/http/api-error';
import { nameProblem } from '../common/validation/text-rules';
import { requireObjectBody } from '../common/validation/validation';
import { LOCAL_NAME } from '../catalog/locations.table';

export const NAME_MAX = 40;
/** A location is offline after this long without contact, at the least. */
export const OFFLINE_MIN_MS = 60_000;
/** ...and after this many of its shortest monitor interval. */
export const OFFLINE_INTERVALS = 3;

export type LocationState = 'online' | 'offline' | 'never';
export const LOCATION_STATES: readonly LocationState[] = ['online', 'offline', 'never'];

/** Why a location name is refused, or null. `local` (any case) is the service's own. */
export function locationNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return `is needed: a name of 1 to ${NAME_MAX} characters, such as "vps-frankfurt"`;
  const problem = nameProblem(name);
  if (problem) return problem;
  if (name.trim() !== name) return 'must not begin or end with spaces';
  if ([...name].length > NAME_MAX) return `at most ${NAME_MAX} characters`;
  if (name.toLowerCase() === LOCAL_NAME) return `"${LOCAL_NAME}" is the service itself: choose another name`;
  return null;
}

/** The body of POST and PATCH /locations: {name}. */
export function parseLocationBody(body: unknown): { name: string } {
  requireObjectBody(body);
  const unknown = Object.keys(body).filter((k) => k !== 'name');
  if (unknown.length > 0)
    throw ApiError.invalid([{ field: unknown[0].slice(0, 60), message: 'unknown field (a location takes name)' }]);
  const problem = locationNameProblem(body.name);
  if (problem) throw ApiError.invalid([{ field: 'name', message: problem }]);
  return { name: body.name as string };
}

/** How long without contact makes a location offline: 3 of its shortest interval, at least a minute. */
export function offlineAfterMs(shortestIntervalS: number | null): number {
  return Math.max(OFFLINE_MIN_MS, shortestIntervalS === null ? 0 : OFFLINE_INTERVALS * shortestIntervalS * 1000);
}

export function locationState(lastSeenAt: number | null, offlineAfter: number, now: number): LocationState {
  if (lastSeenAt === null) return 'never';
  return now - lastSeenAt >= offlineAfter ? 'offline' : 'online';
}
