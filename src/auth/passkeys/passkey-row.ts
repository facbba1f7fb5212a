/** A passkey as answers show it (spec "Owner, session and passkey"), and the small rules around it. Pure. */
import { createHash } from 'node:crypto';
import { toIso } from '../../common/time';
import type { PasskeyEntity } from '../entities/passkey.entity';

/** More would only be forgotten keys; the owner removes one to add another. */
export const MAX_PASSKEYS = 20;

export interface PasskeyRow {
  id: number;
  label: string;
  created_at: string;
  last_used_at: string | null;
}

export function toPasskeyRow(p: PasskeyEntity): PasskeyRow {
  return { id: p.id, label: p.label, created_at: toIso(p.created_at), last_used_at: toIso(p.last_used_at) };
}

/** The label of a passkey added without one: the browser in words, else "Passkey <n>". */
export function defaultLabel(device: string | null, existing: number): string {
  return device ?? `Passkey ${existing + 1}`;
}

/**
 * The WebAuthn user handle of the owner: stable for one owner account (so registering the same
 * authenticator again replaces its entry on the device rather than adding a second), different
 * for an account created anew, and nothing personal (authenticators may show or sync it).
 */
export function ownerHandle(ownerCreatedAt: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`farsight-owner:${ownerCreatedAt}`).digest().subarray(0, 16));
}
