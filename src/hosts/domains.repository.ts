/** The `domains` rows (migrations/1768435200000-Domains.ts). */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../db/database';
import type { DomainState } from './domain-state';

export interface DomainRow {
  host: string;
  active: boolean;
  state: DomainState;
  detail: string;
  since: number;
  checked_at: number | null;
  points_at: string[];
  zone: string | null;
  provider: string | null;
  failures: number;
  retry_at: number | null;
  next_check_at: number | null;
  updated_at: number;
}

interface RawRow extends Omit<DomainRow, 'active' | 'points_at'> {
  active: number;
  points_at: string;
}

const COLUMNS =
  'host, active, state, detail, since, checked_at, points_at, zone, provider, failures, retry_at, next_check_at, updated_at';

@Injectable()
export class DomainsRepository {
  constructor(private readonly db: Database) {}

  async all(m?: EntityManager): Promise<DomainRow[]> {
    const rows = await (m ?? this.db).query<RawRow[]>(`SELECT ${COLUMNS} FROM domains ORDER BY host`);
    return rows.map(fromRaw);
  }

  async get(host: string, m?: EntityManager): Promise<DomainRow | null> {
    const rows = await (m ?? this.db).query<RawRow[]>(`SELECT ${COLUMNS} FROM domains WHERE host = ?`, [host]);
    return rows[0] ? fromRaw(rows[0]) : null;
  }

  async saveIn(m: EntityManager, r: DomainRow): Promise<void> {
    await m.query(
      `INSERT INTO domains (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (host) DO UPDATE SET active = excluded.active, state = excluded.state, detail = excluded.detail,
         since = excluded.since, checked_at = excluded.checked_at, points_at = excluded.points_at, zone = excluded.zone,
         provider = excluded.provider, failures = excluded.failures, retry_at = excluded.retry_at,
         next_check_at = excluded.next_check_at, updated_at = excluded.updated_at`,
      [
        r.host,
        r.active ? 1 : 0,
        r.state,
        r.detail,
        r.since,
        r.checked_at,
        JSON.stringify(r.points_at),
        r.zone,
        r.provider,
        r.failures,
        r.retry_at,
        r.next_check_at,
        r.updated_at,
      ],
    );
  }
}

function fromRaw(r: RawRow): DomainRow {
  let pointsAt: string[] = [];
  try {
    const parsed = JSON.parse(r.points_at) as unknown;
    if (Array.isArray(parsed)) pointsAt = parsed.filter((x): x is string => typeof x === 'string');
  } catch {
    pointsAt = [];
  }
  return { ...r, active: r.active === 1, points_at: pointsAt };
}
