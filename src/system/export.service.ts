/**
 * GET /export (docs/export-import.md): every monitor, every channel and the status page section
 * as one document; secrets masked unless `?secrets=1`. An export with secrets is written to the
 * timeline (who took it), since whoever holds it holds every credential the service keeps.
 */
import { Inject, Injectable } from '@nestjs/common';
import { invalidField } from '../common/http/api-error';
import { actorName, Caller } from '../common/access/caller';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import { EventsService } from '../events/events.service';
import { allMonitorRows, MonitorsRepository } from '../catalog/monitors.repository';
import { ChannelsService } from '../channels/channels.service';
import { ExportDocument, exportDocument } from './export-document';
import { StatusPageService } from '../status/settings/status-page.service';
import { statusPageForExport } from './status-page-section';
import { maintenanceForExport } from './maintenance-section';
import { SubscribersService } from '../subscribers/subscribers.service';

@Injectable()
export class ExportService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly channels: ChannelsService,
    private readonly events: EventsService,
    private readonly pages: StatusPageService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly subscribers: SubscribersService,
  ) {}

  async export(query: Record<string, unknown>, caller: Caller | null): Promise<ExportDocument> {
    const secrets = secretsWanted(query.secrets);
    // One read of the monitors and the channels' memory, with nothing awaited in between that could change either.
    const rows = await allMonitorRows(this.db);
    const doc = exportDocument({
      exportedAt: this.clock.now(),
      monitors: rows.map((r) => ({
        id: r.id,
        config: this.repo.toStored(r).config,
        tokenHash: r.heartbeat_token_hash,
      })),
      channels: this.channels.all(),
      statusPage: await statusPageForExport(this.pages),
      maintenance: await maintenanceForExport(this.db, new Map(rows.map((r) => [r.id, r.slug]))),
      secrets,
    });
    // Addresses are personal data: only in an export that holds secrets (docs/subscribers.md).
    if (secrets) doc.subscribers = await this.subscribers.forExport();
    if (secrets) {
      await this.events.record({
        kind: 'exported',
        text: `export with secrets taken (${doc.monitors.length} monitors, ${doc.channels.length} channels)`,
        actor: actorName(caller),
        data: { secrets: true },
      });
    }
    return doc;
  }
}

function secretsWanted(raw: unknown): boolean {
  if (raw === undefined || raw === '0') return false;
  if (raw === '1') return true;
  throw invalidField('secrets', 'must be 1 (secrets in clear) or 0 (masked, the default)');
}
