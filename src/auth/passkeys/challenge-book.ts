/**
 * WebAuthn challenges waiting for their answer: each is random, bound to what it was issued for
 * (a purpose and, for step-up and registration, the session; for enrolment, the link), lives a
 * few minutes and is taken out by the first verify that names it, whatever that verify decides.
 * So an assertion can never be replayed, and a challenge of one flow cannot serve another.
 *
 * Kept in memory: a challenge is worth nothing after a few minutes, so a restart that forgets
 * them only makes a person press the button again. The book is bounded; when it is full the
 * oldest challenge makes room (at the cap below an attacker must ask for thousands of challenges
 * a second to push out one that a person is answering). Pure: time comes from the caller.
 */
import { randomBytes } from 'node:crypto';

export type ChallengePurpose = 'sign_in' | 'step_up' | 'register' | 'enroll';

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_CAP = 10_000;

export interface IssuedChallenge {
  /** What the client names in verify (`challenge_id`). */
  id: string;
  /** base64url of 32 random bytes: what the authenticator signs. */
  challenge: string;
  expiresAt: number;
}

interface Pending {
  purpose: ChallengePurpose;
  boundTo: string;
  challenge: string;
  expiresAt: number;
}

export class ChallengeBook {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly ttlMs = CHALLENGE_TTL_MS,
    private readonly cap = CHALLENGE_CAP,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  issue(purpose: ChallengePurpose, boundTo: string, now: number): IssuedChallenge {
    this.sweep(now);
    while (this.pending.size >= this.cap) this.pending.delete(this.pending.keys().next().value as string);
    const id = randomBytes(18).toString('base64url');
    const challenge = randomBytes(32).toString('base64url');
    const expiresAt = now + this.ttlMs;
    this.pending.set(id, { purpose, boundTo, challenge, expiresAt });
    return { id, challenge, expiresAt };
  }

  /**
   * The expected challenge for `id`, or null when it is unknown, used, expired, or was issued
   * for another purpose or another session or link. The id is spent either way.
   */
  take(id: string, purpose: ChallengePurpose, boundTo: string, now: number): string | null {
    const p = this.pending.get(id);
    if (!p) return null;
    this.pending.delete(id);
    if (p.expiresAt <= now || p.purpose !== purpose || p.boundTo !== boundTo) return null;
    return p.challenge;
  }

  /** Drops expired challenges; they sit in issue order, and every one lives the same time. */
  private sweep(now: number): void {
    for (const [id, p] of this.pending) {
      if (p.expiresAt > now) break;
      this.pending.delete(id);
    }
  }
}
