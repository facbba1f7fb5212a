/**
 * Single-use links: first-run setup (24 h) and, later, break-glass enrolment and password reset.
 * Plain functions over the Database so the CLI can issue links without starting the server.
 */
import { EntityManager, IsNull } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Database } from '../../db/database';
import { LinkPurpose, LinkTokenEntity } from '../entities/link-token.entity';
import { OwnerEntity } from '../entities/owner.entity';
import { newTotpSecret } from '../password/totp';
import { randomToken, sha256 } from '../../common/access/tokens';

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  setup: 24 * 3600_000,
  enroll: 3600_000,
  reset: 3600_000,
};

export async function ownerExists(m: EntityManager): Promise<boolean> {
  return (await m.countBy(OwnerEntity, { id: 1 })) > 0;
}

/**
 * Issues a setup link. Only one is valid at a time: a new link replaces unused older ones, so a
 * link printed to a log long ago stops working once the operator asks for a fresh one.
 */
export async function issueSetupLink(
  db: Database,
  now: number,
  publicUrl: string,
): Promise<{ url: string; expiresAt: number }> {
  const token = randomToken(24);
  const expiresAt = now + LINK_TTL_MS.setup;
  await db.tx(async (m) => {
    if (await ownerExists(m)) throw new ApiError('conflict', 'the owner account already exists');
    await m.delete(LinkTokenEntity, { purpose: 'setup', used_at: IsNull() });
    await m.save(
      m.create(LinkTokenEntity, {
        purpose: 'setup',
        token_hash: sha256(token),
        totp_secret: newTotpSecret(),
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      }),
    );
  });
  return { url: `${publicUrl}/setup/${token}`, expiresAt };
}

/** The unused, unexpired link for a token, or null. */
export async function findLiveLink(
  m: EntityManager,
  purpose: LinkPurpose,
  token: string,
  now: number,
): Promise<LinkTokenEntity | null> {
  if (token.length < 16 || token.length > 100) return null;
  const link = await m.findOneBy(LinkTokenEntity, { purpose, token_hash: sha256(token) });
  if (!link || link.used_at !== null || link.expires_at <= now) return null;
  return link;
}
