import type { Response } from 'express';
import { serializeCookie } from '../../common/http/cookies';
import type { AppConfig } from '../../config/config';
import { SESSION_COOKIE, SESSION_TTL_MS } from './sessions.service';

/** Secure when the dashboard is served over https (a plain-http homelab URL would drop the cookie otherwise). */
export function setSessionCookie(res: Response, token: string, config: AppConfig): void {
  res.append(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, token, {
      maxAgeS: Math.floor(SESSION_TTL_MS / 1000),
      secure: config.publicUrl.startsWith('https:'),
    }),
  );
}

export function clearSessionCookie(res: Response, config: AppConfig): void {
  res.append(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, '', { maxAgeS: 0, secure: config.publicUrl.startsWith('https:') }),
  );
}
