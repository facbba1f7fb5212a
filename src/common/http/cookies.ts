/** Reads one cookie from a Cookie header (no dependency needed for the one cookie we use). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header || header.length > 8192) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      const v = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(v.replace(/^"(.*)"$/, '$1'));
      } catch {
        return null;
      }
    }
  }
  return null;
}

export interface CookieOptions {
  maxAgeS: number;
  secure: boolean;
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${o.maxAgeS}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
