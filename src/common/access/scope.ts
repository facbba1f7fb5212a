/** The one place scopes are ranked and compared, and a caller's access to a route (or to one field of it) is judged. */
import { ApiError } from '../http/api-error';
import type { Caller } from './caller';
export const KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const RANK: Record<KeyScope, number> = { read: 0, write: 1, admin: 2 };

export function scopeAllows(have: KeyScope, need: KeyScope): boolean {
  return RANK[have] >= RANK[need];
}

/**
 * Whether `caller` may do something that needs `need` (and, for a session, a sign-in within the
 * step-up window when `stepUp`): the route guard asks this for whole routes, services for single
 * fields (PATCH /channels/{id} with `config` needs admin). Throws the spec's 403.
 */
export function requireAccess(caller: Caller, need: KeyScope, stepUp: boolean, now: number): void {
  if (caller.kind === 'key' && !scopeAllows(caller.scope, need)) {
    throw new ApiError('forbidden', `this needs an API key with scope ${need}; this key has ${caller.scope}`);
  }
  if (stepUp && caller.kind === 'session' && caller.freshUntil <= now) {
    throw new ApiError('step_up', 'confirm it is you: sign in again (step-up) and repeat the request');
  }
}
