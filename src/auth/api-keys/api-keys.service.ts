/**
 * API keys `fs_<48 hex>`: shown once at creation, stored as SHA-256, listed by a short prefix.
 * Resolved keys are cached in memory (revocation clears the cache at once), and last-use
 * bookkeeping is coalesced to one write a minute per key. A revocation is announced once it has
 * committed (`access.ended`): the key's open streams close.
 */
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { ID_CURSOR, Page, pageQuery, toPage } from '../../common/http/paging';
import { parseIso, toIso } from '../../common/time';
import { Database } from '../../db/database';
import { ReadCacheMap } from '../../db/read-cache';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import { CreateKeyDto } from '../dto/create-key.dto';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { KeyScope } from '../../common/access/scope';
import { sha256 } from '../../common/access/tokens';
import { API_ROOT } from '../../common/http/routes';
import { ShownOnce, shownOnce } from '../../common/secrets/shown-once';

export const KEY_PATTERN = /^fs_[0-9a-f]{48}$/;
const TOUCH_EVERY_MS = 60_000;

export interface ApiKeyDto {
  id: number;
  name: string;
  prefix: string;
  scope: KeyScope;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  last_ip: string | null;
}

export function toApiKeyDto(k: ApiKeyEntity): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scope: k.scope,
    created_at: toIso(k.created_at),
    expires_at: toIso(k.expires_at),
    last_used_at: toIso(k.last_used_at),
    last_ip: k.last_ip,
  };
}

@Injectable()
export class ApiKeysService {
  private readonly cache = new ReadCacheMap<string, ApiKeyEntity | null>(1000);

  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(dto: CreateKeyDto): Promise<ApiKeyDto & { key: ShownOnce }> {
    const now = this.clock.now();
    let expiresAt: number | null = null;
    if (dto.expires_at !== undefined && dto.expires_at !== null) {
      expiresAt = parseIso(dto.expires_at);
      if (expiresAt === null)
        throw invalidField('expires_at', 'must be an RFC 3339 time, e.g. 2027-01-31T00:00:00.000Z');
      if (expiresAt <= now) throw invalidField('expires_at', 'must be in the future');
    }
    const key = `fs_${randomBytes(24).toString('hex')}`;
    const saved = await this.db.tx(async (m) => {
      const row = await m.save(
        m.create(ApiKeyEntity, {
          name: dto.name,
          scope: dto.scope,
          key_hash: sha256(key),
          prefix: key.slice(0, 7),
          created_at: now,
          expires_at: expiresAt,
          last_used_at: null,
          last_ip: null,
        }),
      );
      await this.events.recordIn(m, {
        kind: 'key_created',
        text: `API key "${dto.name}" (${dto.scope}) created`,
        actor: 'owner',
        data: { key_id: row.id, scope: dto.scope },
      });
      return row;
    });
    const again = `it was made as key ${saved.id} ("${saved.name}" in GET /${API_ROOT}/keys): revoke it with DELETE /${API_ROOT}/keys/${saved.id} and create another`;
    return { ...toApiKeyDto(saved), key: shownOnce(key, again) };
  }

  /** GET /keys: newest first; the cursor is the last key's id. */
  async list(query: Record<string, unknown>): Promise<Page<ApiKeyDto>> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    const qb = this.db.manager
      .createQueryBuilder(ApiKeyEntity, 'k')
      .orderBy('k.id', 'DESC')
      .limit(limit + 1);
    if (before !== null) qb.where('k.id < :before', { before });
    return toPage(await qb.getMany(), limit, toApiKeyDto, (k) => ID_CURSOR.format(k.id));
  }

  async revoke(id: number): Promise<void> {
    await this.db.tx(async (m) => {
      const row = await m.findOneBy(ApiKeyEntity, { id });
      if (!row) throw ApiError.notFound('API key');
      await m.delete(ApiKeyEntity, { id });
      await this.events.recordIn(m, {
        kind: 'key_revoked',
        text: `API key "${row.name}" revoked`,
        actor: 'owner',
        data: { key_id: id },
      });
    });
    this.cache.drop();
    this.bus.emit('access.ended', { kind: 'key', keyId: id });
  }

  /** Which of these keys still exist and have not expired at `now` (open streams are checked with it). */
  async liveIds(ids: readonly number[], now: number): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.read<{ id: number }[]>(
      `SELECT id FROM api_keys WHERE id IN (${ids.map(() => '?').join(',')}) AND (expires_at IS NULL OR expires_at > ?)`,
      [...ids, now],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The live key for a presented value, or null (unknown, malformed, expired). */
  async resolve(value: string, ip: string): Promise<ApiKeyEntity | null> {
    if (!KEY_PATTERN.test(value)) return null;
    const hash = sha256(value);
    const key = await this.cache.get(
      hash,
      async () => (await this.db.read<ApiKeyEntity[]>('SELECT * FROM api_keys WHERE key_hash = ?', [hash]))[0] ?? null,
    );
    const now = this.clock.now();
    if (!key || (key.expires_at !== null && key.expires_at <= now)) return null;
    if (key.last_used_at === null || now - key.last_used_at >= TOUCH_EVERY_MS || key.last_ip !== ip) {
      key.last_used_at = now;
      key.last_ip = ip;
      const id = key.id;
      await this.db.tx((m) => m.update(ApiKeyEntity, { id }, { last_used_at: now, last_ip: ip }));
    }
    return key;
  }
}
