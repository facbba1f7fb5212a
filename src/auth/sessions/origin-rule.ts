/**
 * Which Origin a browser request that sets or uses the session cookie may come from. Pure.
 *
 * The public URL's origin always. While no public URL is configured (FARSIGHT_PUBLIC_URL unset and
 * none saved at setup), also the origin the request itself came in on (its scheme and Host): a
 * homelab box started with the default `http://localhost:8080` is opened from a laptop by its IP
 * address, and that first setup must work. Any other origin is still refused: a page on another
 * site sends its own Origin, never this box's. (A DNS-rebinding page can make Host and Origin
 * agree, but the browser then keeps this box's cookie away from it: it cannot act as the owner;
 * docs/security.md.)
 */
import type { PublicUrlSource } from '../../config/config';

export interface OriginConfig {
  publicOrigin: string;
  publicUrlSource: PublicUrlSource;
}

/** Where the refusal says the address comes from. */
const SOURCE_WORDS: Record<Exclude<PublicUrlSource, 'default'>, string> = {
  env: 'FARSIGHT_PUBLIC_URL',
  setting: 'saved at first-run setup; FARSIGHT_PUBLIC_URL overrides it',
};

/** Null when `origin` may send the request, else the refusal's message. */
export function originProblem(origin: string, own: string | null, config: OriginConfig): string | null {
  if (origin === config.publicOrigin) return null;
  if (config.publicUrlSource === 'default') {
    if (own !== null && origin === own) return null;
    return `cross-origin request refused: Origin ${origin} is neither this page's own address (${own ?? 'unknown: no Host header'}) nor ${config.publicOrigin}`;
  }
  return `cross-origin request refused: Farsight's address is ${config.publicOrigin} (${SOURCE_WORDS[config.publicUrlSource]}); open Farsight there, or set FARSIGHT_PUBLIC_URL to the address you use`;
}

export interface RequestAddress {
  /** The Host header. */
  host: string | undefined;
  /** Whether the connection itself is TLS. */
  encrypted: boolean;
  /** X-Forwarded-Proto, only when the peer is a trusted proxy (FARSIGHT_TRUST_PROXY). */
  forwardedProto: string | undefined;
}

/** The origin (`scheme://host[:port]`, as a browser writes it) the request came in on, or null. */
export function ownOrigin(req: RequestAddress): string | null {
  const proto =
    req.forwardedProto !== undefined
      ? req.forwardedProto.split(',')[0].trim().toLowerCase()
      : req.encrypted
        ? 'https'
        : 'http';
  if (proto !== 'http' && proto !== 'https') return null;
  // A Host is a name or an address with an optional port, nothing else (no path, no credentials).
  if (req.host === undefined || !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(req.host)) return null;
  try {
    return new URL(`${proto}://${req.host}`).origin;
  } catch {
    return null;
  }
}
