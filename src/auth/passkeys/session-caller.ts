import { ApiError } from '../../common/api-error';
import type { Caller } from '../../common/caller';

/** The session of a @SessionOnly route's caller (the guard has already refused everyone else). */
export function sessionIdOf(caller: Caller | null): number {
  if (caller?.kind !== 'session') throw new ApiError('forbidden', 'this route is for the owner signed in to the dashboard');
  return caller.sessionId;
}
