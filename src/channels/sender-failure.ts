/**
 * A sender answers its failures (SendResult); one that throws has a bug, and the error's message
 * may quote the channel's URL or a header. It is quoted masked with every secret of the channel
 * (and the parts of a secret URL: its path, its query values) before it is cut. Pure.
 */
import { quoteMasked, urlSecretParts } from '../common/secrets/secrets';
import type { SendResult } from './channel-kind';

export const THROWN_QUOTE_MAX = 200;

export function thrownBySender(err: unknown, secrets: readonly string[]): SendResult {
  const all = secrets.flatMap((v) => [v, ...urlSecretParts(v)]);
  const why = err instanceof Error ? quoteMasked(err.message, all, THROWN_QUOTE_MAX) : 'unknown error';
  return { ok: false, provider: null, status: null, error: `the sender failed: ${why}`, permanent: false };
}
