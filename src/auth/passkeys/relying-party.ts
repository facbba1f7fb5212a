/**
 * The WebAuthn relying party is the dashboard's public address (FARSIGHT_PUBLIC_URL): its host is
 * the RP id every passkey is bound to, its origin the only one a browser may sign for. Pure.
 */
import { isIP } from 'node:net';

export const RP_NAME = 'Farsight';

export interface RelyingParty {
  /** The host name, e.g. `status.example.com` or `localhost` (no port). */
  id: string;
  /** `https://status.example.com`, `http://localhost:8080`. */
  origin: string;
  name: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: RP_NAME };
}

/**
 * Why browsers will refuse passkeys for this public URL, in words, or null when they can work.
 * Browsers offer WebAuthn only in a secure context (https, or http on localhost) and never for an
 * IP address as the RP id. The service still answers every passkey route; this is for the docs,
 * the pages and the log line at start.
 */
export function passkeyProblem(publicUrl: string): string | null {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    return `passkeys need a host name, and ${url.host} is an IP address: use a name (https with a reverse proxy), or sign in with password and authenticator`;
  }
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (url.protocol !== 'https:' && !local) {
    return `passkeys need https (or localhost), and ${url.origin} is plain http: put Farsight behind an https reverse proxy, or sign in with password and authenticator`;
  }
  return null;
}
