/**
 * The feeds of the status page (docs/status-page.md, "Feeds"): the public incidents as Atom and
 * RSS, kept for a minute (a feed reader polls; a change shows within the minute).
 */
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { PublicStatusService } from '../public/public-status.service';
import { StatusPageRepository } from '../settings/status-page.repository';
import { Database } from '../../db/database';
import { readPublicWindows } from '../../maintenance/public-windows';
import { atomFeed, FEED_ENTRIES, feedOrder, incidentEntry, maintenanceEntry, rssFeed } from './feed-xml';

export type FeedKind = 'atom' | 'rss';
export const FEED_CACHE_MS = 60_000;
export const FEED_TYPES: Record<FeedKind, string> = {
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
};

export interface FeedAnswer {
  body: string;
  etag: string;
}

@Injectable()
export class FeedsService {
  private readonly kept = new Map<FeedKind, { at: number; value: Promise<FeedAnswer | null> }>();

  constructor(
    private readonly pages: PublicStatusService,
    private readonly db: Database,
    private readonly repo: StatusPageRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The feed, or null while the status page is not published. */
  feed(kind: FeedKind): Promise<FeedAnswer | null> {
    const now = this.clock.now();
    const hit = this.kept.get(kind);
    if (hit && now - hit.at < FEED_CACHE_MS && now >= hit.at) return hit.value;
    const value = this.build(kind, now);
    this.kept.set(kind, { at: now, value });
    value.catch(() => this.kept.delete(kind));
    return value;
  }

  private async build(kind: FeedKind, now: number): Promise<FeedAnswer | null> {
    const incidents = await this.pages.latestIncidents(FEED_ENTRIES);
    if (incidents === null) return null;
    const settings = await this.repo.getSettings();
    const base = this.config.publicUrl.replace(/\/+$/, '');
    // Announced and active public windows (docs/maintenance.md), beside the incidents.
    const windows = (await readPublicWindows(this.db, now)).map((w) => maintenanceEntry(w, base));
    const entries = feedOrder([...incidents.map((i) => incidentEntry(i, base)), ...windows]);
    const head = {
      title: settings.title,
      description: settings.description,
      base,
      updated: entries.length ? Math.max(...entries.map((e) => e.updated)) : now,
    };
    const body = kind === 'atom' ? atomFeed(head, entries) : rssFeed(head, entries);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
}
