/**
 * The badges (docs/badges.md): a public service's status, uptime or typical latency as SVG or as
 * shields.io endpoint JSON, by its public slug (the name of its page under /status/). Drawn from
 * the status page's own model (rollups and public columns, cached 30 s), so a badge never shows
 * more than the page does. A slug that names no public service, a private monitor's slug among
 * them, gets the same grey "unknown" badge with status 404: nothing tells the two apart.
 */
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ApiError } from '../../common/http/api-error';
import { PublicStatusService } from '../public/public-status.service';
import {
  BadgeRange,
  defaultLabel,
  latencyBadge,
  readBadgeQuery,
  statusBadge,
  unknownBadge,
  uptimeBadge,
} from './badge-facts';
import { Badge, renderBadge } from './badge-svg';

export type BadgeKind = 'status' | 'uptime' | 'latency';

export interface BadgeAnswer {
  status: 200 | 404;
  type: string;
  body: string;
  etag: string;
}

/** The range the latency and status badges read: the status page's own shortest. */
const LATEST = '24h';

@Injectable()
export class BadgesService {
  constructor(private readonly pages: PublicStatusService) {}

  async svg(slug: string, kind: BadgeKind, query: Record<string, unknown>): Promise<BadgeAnswer> {
    const q = checked(query);
    const { badge, found } = await this.badge(slug, kind, q.range, q.label);
    return answer(found, 'image/svg+xml; charset=utf-8', renderBadge(badge, q.style));
  }

  /** The shields.io endpoint format (https://shields.io/badges/endpoint-badge): the status badge's words. */
  async shields(slug: string, query: Record<string, unknown>): Promise<BadgeAnswer> {
    const q = checked(query);
    const { badge, found } = await this.badge(slug, 'status', q.range, q.label);
    const body = JSON.stringify({
      schemaVersion: 1,
      label: badge.label,
      message: badge.message,
      color: badge.color.slice(1),
      labelColor: '3c434d',
      cacheSeconds: 60,
    });
    return answer(found, 'application/json; charset=utf-8', body);
  }

  private async badge(
    slug: string,
    kind: BadgeKind,
    range: BadgeRange,
    label: string | null,
  ): Promise<{ badge: Badge; found: boolean }> {
    const words = { status: 'status', uptime: `uptime ${range}`, latency: 'latency' }[kind];
    // A slug is a page name: bounded here too, so a megabyte of path is not looked up.
    const svc = slug.length <= 200 ? await this.pages.publicService(slug, kind === 'uptime' ? range : LATEST) : null;
    if (!svc) return { badge: unknownBadge(label ?? words), found: false };
    if (kind === 'status') return { badge: statusBadge(label ?? defaultLabel(svc.name), svc.status), found: true };
    if (kind === 'uptime') return { badge: uptimeBadge(label ?? words, svc.uptime), found: true };
    return { badge: latencyBadge(label ?? words, svc.typical_ms), found: true };
  }
}

function checked(query: Record<string, unknown>) {
  const r = readBadgeQuery(query);
  if (!r.ok) throw ApiError.invalid(r.errors);
  return r.query;
}

function answer(found: boolean, type: string, body: string): BadgeAnswer {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { status: found ? 200 : 404, type, body, etag };
}
