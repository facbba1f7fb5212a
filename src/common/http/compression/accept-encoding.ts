/** Which compression a client takes: one rule for the status page, the dashboard's assets and API answers. */

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an Accept-Encoding header (q=0 refuses one; `*` stands for the others). Pure. */
export function pickEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = Math.max(weight('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}
