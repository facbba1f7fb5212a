/** Authenticator codes (RFC 6238, 6 digits, 30 s) read against an injected time. */
import { authenticator } from 'otplib';

export const TOTP_ISSUER = 'Farsight';

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export function totpUri(secret: string, account: string): string {
  return authenticator.keyuri(account, TOTP_ISSUER, secret);
}

/** What a person needs to add the secret to an authenticator app: the secret, its URI and a QR code of it. */
export async function totpEnrolment(secret: string): Promise<{ secret: string; uri: string; qr_svg: string }> {
  const uri = totpUri(secret, `${TOTP_ISSUER} owner`);
  // Loaded here, not at start: only setting up an authenticator draws a QR code.
  const QRCode = await import('qrcode');
  const qr = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qr_svg: qr };
}

/** Accepts the code of the current 30 s step and one step either side (clock drift). */
export function verifyTotp(secret: string, code: string, nowMs: number): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return authenticator.clone({ epoch: nowMs, window: 1 }).check(code, secret);
}

/** For tests and for the setup page preview: the code at a given time. */
export function totpAt(secret: string, nowMs: number): string {
  return authenticator.clone({ epoch: nowMs }).generate(secret);
}
