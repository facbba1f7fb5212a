/** The `detail` of a tls check: how long the certificate has left, read against one clock value. */
import type { CertInfo } from '../check-result';
import { toIso } from '../../common/time';

const DAY_MS = 86_400_000;

export function describeCertValidity(cert: CertInfo, nowMs: number): string {
  const until = toIso(cert.not_after).slice(0, 10);
  const left = cert.not_after - nowMs;
  if (left < 0) {
    const ago = Math.floor(-left / DAY_MS);
    return ago === 0 ? `certificate expired today (${until})` : `certificate expired ${plural(ago)} ago (${until})`;
  }
  const days = Math.floor(left / DAY_MS);
  return days === 0
    ? `certificate expires within a day (${until})`
    : `certificate valid for ${plural(days)} more (until ${until})`;
}

function plural(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}
