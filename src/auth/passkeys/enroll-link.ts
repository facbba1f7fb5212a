/**
 * `farsight enroll-link`: a break-glass link that adds a passkey and signs in, for an owner who
 * lost every way in (passkeys, authenticator, recovery codes) but whose operator can run a
 * command on the server. A plain function over the Database, so the CLI issues it without
 * starting the service (the running service reads it from the same database).
 *
 * Single use, valid LINK_TTL_MS.enroll (1 hour); a new link voids older unused ones. Only its
 * SHA-256 is stored; the issue is written to the timeline, so the owner sees it.
 */
import { IsNull } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { formatWhen } from '../../common/time';
import { randomToken, sha256 } from '../../common/access/tokens';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { LinkTokenEntity } from '../entities/link-token.entity';
import { LINK_TTL_MS, ownerExists } from '../setup/links';

export async function issueEnrollLink(
  db: Database,
  events: EventsService,
  now: number,
  publicUrl: string,
): Promise<{ url: string; expiresAt: number }> {
  const token = randomToken(24);
  const expiresAt = now + LINK_TTL_MS.enroll;
  await db.tx(async (m) => {
    if (!(await ownerExists(m))) {
      throw new ApiError('conflict', 'there is no owner account yet: finish the first-run setup (farsight setup-link)');
    }
    await m.delete(LinkTokenEntity, { purpose: 'enroll', used_at: IsNull() });
    await m.save(
      m.create(LinkTokenEntity, {
        purpose: 'enroll',
        token_hash: sha256(token),
        totp_secret: null,
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      }),
    );
    await events.recordIn(m, {
      kind: 'enroll_link',
      text: `a break-glass enrolment link was issued on the server (farsight enroll-link), valid until ${formatWhen(expiresAt)}`,
      actor: 'system',
      data: { expires_at: expiresAt },
      at: now,
    });
  });
  return { url: `${publicUrl}/enroll/${token}`, expiresAt };
}
