/** The one place scopes are ranked and compared. */
export const KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const RANK: Record<KeyScope, number> = { read: 0, write: 1, admin: 2 };

export function scopeAllows(have: KeyScope, need: KeyScope): boolean {
  return RANK[have] >= RANK[need];
}
