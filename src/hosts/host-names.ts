/** Host names as requests carry them. Pure. */

/** The host of a request (Host header), lower case and without port or final dot, for matching. */
export function requestHost(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header.trim().toLowerCase());
  if (!m) return null;
  const host = m[1].replace(/\.$/, '');
  return host === '' ? null : host;
}
