/**
 * The owner's view of subscribers (GET /subscribers, DELETE /subscribers/{id}, admin) and the
 * export and import of their addresses (docs/subscribers.md). One answer mapper.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { randomToken, sha256 } from '../common/access/tokens';
import { ApiError, FieldError } from '../common/http/api-error';
import { ID_CURSOR, Page, pageQuery, toPage } from '../common/http/paging';
import { toIso } from '../common/time';
import { parseId } from '../common/validation/ids';
import { Database } from '../db/database';
import { SECRET_BOX, SecretBox } from '../db/secret-box';
import { EventsService } from '../events/events.service';
import { SubscribeService } from './subscribe.service';
import { checkEmail } from './subscriber-rules';
import {
  allSubscribers,
  insertSubscriberIn,
  subscriberByEmailIn,
  subscriberPage,
  SubscriberRow,
  SubscriberState,
} from './subscribers.table';

export interface SubscriberAnswer {
  id: number;
  email: string;
  state: SubscriberState;
  created_at: string;
  confirmed_at: string | null;
}

export function toSubscriberAnswer(r: SubscriberRow): SubscriberAnswer {
  return {
    id: r.id,
    email: r.email,
    state: r.state,
    created_at: toIso(r.created_at),
    confirmed_at: toIso(r.confirmed_at),
  };
}

/** A subscriber as an export item: only in an export with `?secrets=1` (an address is personal data). */
export type SubscriberExport = {
  email: string;
  state: SubscriberState;
  created_at: string;
  confirmed_at: string | null;
};

export interface SubscribersImport {
  errors: FieldError[];
  /** Addresses the import adds (confirmed ones not stored yet). */
  added: string[];
  applyIn(m: EntityManager): Promise<void>;
}

const IMPORT_MAX = 100_000;

@Injectable()
export class SubscribersService {
  constructor(
    private readonly db: Database,
    private readonly subscribe: SubscribeService,
    private readonly events: EventsService,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(query: Record<string, unknown>): Promise<Page<SubscriberAnswer>> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    const rows = await subscriberPage(this.db, before, limit);
    return toPage(rows, limit, toSubscriberAnswer, (r) => ID_CURSOR.format(r.id));
  }

  async remove(rawId: string, actor: string): Promise<void> {
    const id = parseId(rawId, 'subscriber');
    const removed = await this.db.tx(async (m) => {
      if (!(await this.subscribe.removeIn(m, id))) return false;
      // The timeline names the subscriber by id: addresses stay out of what read keys see.
      await this.events.recordIn(m, { kind: 'status_page_updated', actor, text: `subscriber ${id} removed` });
      return true;
    });
    if (!removed) throw ApiError.notFound('subscriber');
  }

  async forExport(): Promise<SubscriberExport[]> {
    return (await allSubscribers(this.db)).map((r) => ({
      email: r.email,
      state: r.state,
      created_at: toIso(r.created_at),
      confirmed_at: toIso(r.confirmed_at),
    }));
  }

  /**
   * The `subscribers` section of an import: a list of {email, state, created_at, confirmed_at}.
   * Confirmed addresses not stored yet are added as confirmed (they confirmed on the service that
   * exported them); a pending one is left out (its link died with that service: the person
   * subscribes again); a stored address is left as it is.
   */
  async planImport(raw: unknown): Promise<SubscribersImport> {
    const none = { errors: [], added: [], applyIn: async () => undefined };
    if (raw === undefined) return none;
    if (!Array.isArray(raw) || raw.length > IMPORT_MAX)
      return {
        ...none,
        errors: [{ field: 'subscribers', message: `must be a list of at most ${IMPORT_MAX} subscribers` }],
      };
    const errors: FieldError[] = [];
    const wanted = new Map<string, number>();
    raw.forEach((item: unknown, i) => {
      const f = `subscribers[${i}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        return errors.push({ field: f, message: 'must be an object {email, state, ...}' });
      const s = item as Record<string, unknown>;
      const email = checkEmail(s.email);
      if (!email.ok) return errors.push({ field: `${f}.email`, message: email.message });
      if (s.state !== 'pending' && s.state !== 'confirmed')
        return errors.push({ field: `${f}.state`, message: 'must be pending or confirmed' });
      const at = s.confirmed_at === null || s.confirmed_at === undefined ? NaN : Date.parse(String(s.confirmed_at));
      if (s.state === 'confirmed' && !wanted.has(email.email))
        wanted.set(email.email, Number.isFinite(at) ? at : this.clock.now());
    });
    if (errors.length) return { ...none, errors };
    const stored = new Set((await allSubscribers(this.db)).map((r) => r.email));
    const added = [...wanted.keys()].filter((e) => !stored.has(e));
    return {
      errors,
      added,
      applyIn: async (m) => {
        const now = this.clock.now();
        for (const email of added) {
          if (await subscriberByEmailIn(m, email)) continue;
          const unsub = randomToken();
          await insertSubscriberIn(m, {
            email,
            state: 'confirmed',
            confirm_hash: null,
            confirm_expires_at: null,
            confirm_used_at: null,
            unsub_hash: sha256(unsub),
            unsub_token: this.box.seal(unsub),
            created_at: now,
            confirmed_at: wanted.get(email) ?? now,
          });
        }
      },
    };
  }
}
