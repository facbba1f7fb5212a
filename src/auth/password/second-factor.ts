/**
 * The second factor of a password sign-in, a reset and a step-up: an authenticator code or a
 * recovery code. Pure.
 *
 * A code is accepted for the current 30-second step and one step either side (clock drift), and
 * only for a step later than the last one accepted: a code seen over a shoulder or in a proxy log
 * cannot be used again, not even within its own 90 seconds.
 */
import { authenticator } from 'otplib';
import { ApiError } from '../../common/http/api-error';

export const TOTP_STEP_MS = 30_000;
/** Steps either side of now that are accepted. */
export const TOTP_WINDOW = 1;

/** The time step a code belongs to, or null when it is wrong or not newer than `lastStep`. */
export function acceptedTotpStep(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator.clone({ epoch: nowMs, window: TOTP_WINDOW }).checkDelta(code, secret);
  if (delta === null) return null;
  const step = Math.floor(nowMs / TOTP_STEP_MS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

export type SecondFactor = { kind: 'code'; code: string } | { kind: 'recovery'; code: string };

/** Exactly one of `code` and `recovery_code` (the DTO has checked their types and lengths). */
export function secondFactorOf(body: { code?: string; recovery_code?: string }): SecondFactor {
  const hasCode = body.code !== undefined;
  const hasRecovery = body.recovery_code !== undefined;
  if (hasCode && hasRecovery) {
    throw ApiError.invalid([{ field: 'recovery_code', message: 'send either code or recovery_code, not both' }]);
  }
  if (hasCode) return { kind: 'code', code: body.code as string };
  if (hasRecovery) return { kind: 'recovery', code: body.recovery_code as string };
  throw ApiError.invalid([
    { field: 'code', message: 'send the 6-digit code from your authenticator, or a recovery_code' },
  ]);
}
