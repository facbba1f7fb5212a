/**
 * The owner's side of the status page: GET and PUT /status-page (settings and the monitors'
 * public settings at once), the logo and the icon, and the preview. Every change is one
 * transaction with its timeline line, and drops the public pages' cache once it committed.
 */
import type { EntityManager } from 'typeorm';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError, FieldError } from '../../common/http/api-error';
import { actorName, Caller } from '../../common/access/caller';
import { CLOCK, Clock } from '../../common/clock';
import { requireAccess } from '../../common/access/scope';
import { requireObjectBody } from '../../common/validation/validation';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Database } from '../../db/database';
import { monitorIds, MonitorsRepository, publicPlacementRows, StoredMonitor } from '../../catalog/monitors.repository';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import { MonitorsService } from '../../monitors/monitors.service';
import { DomainAnswer, DomainsService } from '../../hosts/domains.service';
import type { MonitorConfig } from '../../probes/monitor-config';
import { checkIcon, checkLogo, logoType } from '../uploads/image-check';
import { PAGE_KEYS, PageSettings, Range } from './look';
import { MonitorPublicPatch, parseSettingsBody } from './page-settings';
import type { PublicOverride } from '../public/public-data';
import { PublicStatusService } from '../public/public-status.service';
import { StatusPageRepository, versionOf } from './status-page.repository';

export const UPLOAD_MAX = 256 * 1024;

export type StatusPageAnswer = PageSettings & {
  monitors: { id: number; public: boolean; public_name: string | null; public_group: string | null; sort: number }[];
  url: string;
  logo: { url: string; type: string; v: string; icon: { url: string; v: string; size: number } | null } | null;
  domains: DomainAnswer[];
  server_ips: string[];
};

@Injectable()
export class StatusPageService {
  constructor(
    private readonly db: Database,
    private readonly repo: StatusPageRepository,
    private readonly catalog: MonitorsRepository,
    private readonly monitors: MonitorsService,
    private readonly pages: PublicStatusService,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly domains: DomainsService,
  ) {}

  /** The dashboard's own host name: never a custom host of the page (it is the dashboard there). */
  dashboardHost(): string {
    return new URL(this.config.publicUrl).hostname.toLowerCase();
  }

  /** The stored settings (no read-only keys, no monitors: each monitor carries its public fields). */
  settings(): Promise<PageSettings> {
    return this.repo.getSettings();
  }

  /** Writes settings inside a transaction the caller holds (an import), with the timeline line. */
  async saveIn(m: EntityManager, next: PageSettings, changed: string[], actor: string): Promise<void> {
    await this.repo.saveSettingsIn(m, next, this.clock.now());
    if (changed.includes('hosts')) await this.domains.syncIn(m, next.hosts, actor);
    await this.events.recordIn(m, {
      kind: 'status_page_updated',
      text: `status page changed: ${changed.join(', ')}`,
      actor,
      data: { fields: changed },
    });
  }

  /**
   * After the caller's transaction committed: readers see the new settings, the page cache is
   * dropped, and the custom hosts are looked at again when `changed` (the fields saved) holds them.
   */
  committed(changed: readonly string[]): void {
    this.repo.forget();
    this.pages.invalidate();
    if (changed.includes('hosts')) this.domains.committed();
  }

  async get(): Promise<StatusPageAnswer> {
    const s = await this.repo.getSettings();
    const monitors = await publicPlacementRows(this.db);
    const logo = await this.repo.asset('logo');
    const icon = await this.repo.asset('icon');
    return {
      ...(Object.fromEntries(PAGE_KEYS.map((k) => [k, s[k]])) as unknown as PageSettings),
      monitors: monitors.map((m) => ({
        id: m.id,
        public: m.public === 1,
        public_name: m.public_name,
        public_group: m.public_group,
        sort: m.sort,
      })),
      url: s.hosts.length ? `https://${s.hosts[0]}/` : `${this.config.publicUrl}/status`,
      logo: logo
        ? {
            url: `${this.config.publicUrl}/status/logo?v=${logo.v}`,
            type: logo.type,
            v: logo.v,
            icon: icon
              ? { url: `${this.config.publicUrl}/status/icon.png?v=${icon.v}`, v: icon.v, size: icon.width ?? 0 }
              : null,
          }
        : null,
      domains: await this.domains.answers(s.hosts),
      server_ips: this.domains.serverIps(),
    };
  }

  async put(body: unknown, caller: Caller): Promise<StatusPageAnswer> {
    requireObjectBody(body);
    const current = await this.repo.getSettings();
    const parsed = parseSettingsBody(body, current, [], { dashboardHost: this.dashboardHost() });
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    const { next, changed, monitors } = parsed.patch;
    // `hosts` needs admin (and a session a fresh sign-in) only when it really changes.
    if (changed.includes('hosts')) requireAccess(caller, 'admin', true, this.clock.now());
    await this.requireMonitors(monitors);
    const announced: { id: number; config: MonitorConfig }[] = [];
    await this.tx(async (m) => {
      if (changed.length) {
        await this.saveIn(m, next, changed, actorName(caller));
      }
      for (const [i, item] of monitors.entries()) {
        // Read again inside the transaction: a monitor deleted meanwhile is a 422, and nothing is kept.
        const stored = await this.catalog.findById(item.id, m);
        if (!stored)
          throw ApiError.invalid([{ field: `monitors[${i}].id`, message: `there is no monitor ${item.id}` }]);
        const config = withPublic(stored, item);
        const outcome = await this.monitors.updateIn(m, stored, config, caller);
        if (outcome.changed) announced.push({ id: stored.id, config });
      }
    });
    for (const a of announced)
      this.bus.emit('monitor.changed', {
        id: a.id,
        created: false,
        targetChanged: false,
        config: a.config,
        endedIncident: null,
      });
    if (changed.length) this.committed(changed);
    return this.get();
  }

  /** Every monitor named must exist, checked before anything is written. */
  private async requireMonitors(items: MonitorPublicPatch[]): Promise<void> {
    if (items.length === 0) return;
    const ids = new Set(await monitorIds(this.db));
    const errors: FieldError[] = items.flatMap((item, i) =>
      ids.has(item.id) ? [] : [{ field: `monitors[${i}].id`, message: `there is no monitor ${item.id}` }],
    );
    if (errors.length) throw ApiError.invalid(errors);
  }

  async putLogo(
    contentType: string | undefined,
    bytes: Buffer,
    caller: Caller,
  ): Promise<{ ok: true; v: string; url: string }> {
    const type = logoType(contentType);
    if (!type) {
      throw ApiError.invalid([
        { field: 'Content-Type', message: 'must be image/png, image/jpeg, image/webp or image/svg+xml' },
      ]);
    }
    const check = checkLogo(type, bytes);
    if (!check.ok) throw ApiError.invalid([{ field: 'body', message: check.message }]);
    // What is stored is what the check answers: for an SVG, its clean serialisation.
    const data = check.data;
    const v = versionOf(data);
    const now = this.clock.now();
    await this.tx(async (m) => {
      // A new logo drops the icon made from the old one (spec).
      await this.repo.deleteAssetIn(m, 'icon');
      await this.repo.putAssetIn(m, {
        kind: 'logo',
        type,
        data,
        v,
        width: check.width,
        height: check.height,
        logo_v: null,
        created_at: now,
      });
      await this.recordIn(
        m,
        caller,
        'logo',
        `status page logo uploaded (${type}, ${Math.ceil(data.length / 1024)} KB)`,
      );
    });
    this.pages.invalidate();
    return { ok: true, v, url: `${this.config.publicUrl}/status/logo?v=${v}` };
  }

  async deleteLogo(caller: Caller): Promise<{ ok: true }> {
    const logo = await this.repo.asset('logo');
    if (logo) {
      await this.tx(async (m) => {
        await this.repo.deleteAssetIn(m, 'icon');
        await this.repo.deleteAssetIn(m, 'logo');
        await this.recordIn(m, caller, 'logo', 'status page logo removed, and the icon made from it');
      });
      this.pages.invalidate();
    }
    return { ok: true };
  }

  async putIcon(
    contentType: string | undefined,
    bytes: Buffer,
    logoV: unknown,
    caller: Caller,
  ): Promise<{ ok: true; v: string; url: string }> {
    if (logoType(contentType) !== 'image/png')
      throw ApiError.invalid([{ field: 'Content-Type', message: 'must be image/png' }]);
    if (logoV !== undefined && (typeof logoV !== 'string' || !/^[0-9a-f]{1,64}$/.test(logoV))) {
      throw ApiError.invalid([{ field: 'logo', message: 'must be the v of a logo' }]);
    }
    const check = checkIcon(bytes);
    if (!check.ok) throw ApiError.invalid([{ field: 'body', message: check.message }]);
    const v = versionOf(bytes);
    const now = this.clock.now();
    await this.tx(async (m) => {
      const rows = await m.query<{ v: string }[]>("SELECT v FROM status_assets WHERE kind = 'logo'");
      const logo = rows[0]?.v;
      if (!logo) throw new ApiError('conflict', 'there is no logo to make an icon from: upload a logo first');
      if (logoV !== undefined && logoV !== logo)
        throw new ApiError(
          'conflict',
          `the logo changed since (it is now ${logo}): draw the icon again from the current logo`,
        );
      await this.repo.putAssetIn(m, {
        kind: 'icon',
        type: 'image/png',
        data: bytes,
        v,
        width: check.width,
        height: check.height,
        logo_v: logo,
        created_at: now,
      });
      await this.recordIn(m, caller, 'icon', `status page icon uploaded (${check.width} px)`);
    });
    this.pages.invalidate();
    return { ok: true, v, url: `${this.config.publicUrl}/status/icon.png?v=${v}` };
  }

  /** POST /status-page/preview: {settings, monitors, range}, every part optional; hosts ignored; nothing stored. */
  async preview(body: unknown): Promise<{ html: string; range: Range }> {
    const b = body === undefined ? {} : body;
    requireObjectBody(b);
    const errors: FieldError[] = [];
    for (const k of Object.keys(b))
      if (!['settings', 'monitors', 'range'].includes(k)) errors.push({ field: k, message: 'unknown field' });
    const settings = b.settings ?? {};
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      errors.push({ field: 'settings', message: 'must be an object' });
    if (b.range !== undefined && typeof b.range !== 'string')
      errors.push({ field: 'range', message: 'must be a range such as 90d' });
    if (errors.length) throw ApiError.invalid(errors);
    const draft = { ...(settings as Record<string, unknown>) };
    delete draft.monitors;
    if (b.monitors !== undefined) draft.monitors = b.monitors;
    const parsed = parseSettingsBody(draft, await this.repo.getSettings(), ['hosts']);
    if (!parsed.ok) {
      throw ApiError.invalid(
        parsed.errors.map((e) => ({ ...e, field: e.field.startsWith('monitors') ? e.field : `settings.${e.field}` })),
      );
    }
    await this.requireMonitors(parsed.patch.monitors);
    const overrides = new Map<number, PublicOverride>(parsed.patch.monitors.map(({ id, ...rest }) => [id, rest]));
    return this.pages.preview({ settings: parsed.patch.next, overrides }, b.range);
  }

  private recordIn(m: Parameters<EventsService['recordIn']>[0], caller: Caller, field: string, text: string) {
    return this.events.recordIn(m, {
      kind: 'status_page_updated',
      text,
      actor: actorName(caller),
      data: { fields: [field] },
    });
  }

  private async tx(fn: Parameters<Database['tx']>[0]): Promise<void> {
    try {
      await this.db.tx(fn);
    } catch (err) {
      this.repo.forget();
      throw err;
    }
  }
}

function withPublic(stored: StoredMonitor, item: MonitorPublicPatch): MonitorConfig {
  const c = structuredClone(stored.config);
  if (item.public !== undefined) c.public = item.public;
  if (item.public_name !== undefined) c.public_name = item.public_name;
  if (item.public_group !== undefined) c.public_group = item.public_group;
  if (item.sort !== undefined) c.sort = item.sort;
  return c;
}
