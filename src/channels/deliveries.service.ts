/**
 * GET /deliveries: the delivery log, one row per attempt, newest first. `outbox_state` is the
 * message's state now (sent, failed, retrying), null once the message is pruned.
 */
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/http/api-error';
import { isIdText } from '../common/validation/ids';
import { ID_CURSOR, Page, pageQuery, toPage } from '../common/http/paging';
import { toIso } from '../common/time';
import { Database } from '../db/database';
import { listDeliveries, LoggedDelivery } from '../mail/deliveries.table';

export interface DeliveryAnswer {
  id: number;
  at: string;
  channel_id: number | null;
  channel_name: string;
  ok: boolean;
  provider: string | null;
  status: number | null;
  error: string | null;
  summary: string;
  outbox_id: number | null;
  outbox_state: 'sent' | 'failed' | 'retrying' | null;
  monitor_ids: number[] | null;
}

@Injectable()
export class DeliveriesService {
  constructor(private readonly db: Database) {}

  async list(query: Record<string, unknown>): Promise<Page<DeliveryAnswer>> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    let channelId: number | null = null;
    if (query.channel_id !== undefined && query.channel_id !== '') {
      if (!isIdText(query.channel_id)) {
        throw ApiError.invalid([{ field: 'channel_id', message: 'must be a channel id' }]);
      }
      channelId = Number(query.channel_id);
    }
    const rows = await listDeliveries(this.db, { channelId, before, limit: limit + 1 });
    return toPage(rows, limit, toAnswer, (r) => ID_CURSOR.format(r.id));
  }
}

function toAnswer(r: LoggedDelivery): DeliveryAnswer {
  return {
    id: r.id,
    at: toIso(r.at),
    channel_id: r.channel_id,
    channel_name: r.channel_name,
    ok: r.ok === 1,
    provider: r.provider,
    status: r.status,
    error: r.error,
    summary: r.summary,
    outbox_id: r.outbox_id,
    // A message being sent right now still shows as retrying (its earlier attempt failed).
    outbox_state: r.state === null ? null : r.state === 'sent' || r.state === 'failed' ? r.state : 'retrying',
    monitor_ids: r.monitor_ids === null ? null : (JSON.parse(r.monitor_ids) as number[]),
  };
}
