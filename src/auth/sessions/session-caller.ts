import { ApiError } from '../../common/http/api-error';
import type { Caller } from '../../common/access/caller';

/** The session behind a session-only route (the guard lets only sessions through; this narrows the type). */
export function sessionIdOf(caller: Caller | null): number {
  if (caller?.kind !== 'session')
    throw new ApiError('forbidden', 'this route is for the owner signed in to the dashboard');
  return caller.sessionId;
}
