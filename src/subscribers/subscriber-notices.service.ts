/**
 * What subscribers are told, written durably before anything is sent (docs/subscribers.md):
 *
 * 1. A public incident opened or ended: the engine hands its alert causes to this sink inside the
 *    writer's transaction, the one that stores the state row and the incident, so the notice and
 *    one mail row per confirmed subscriber commit with the change or not at all. Only monitors
 *    shown on the status page (public) count, and only while the page is published and takes
 *    subscribers. A Down held back because the monitor flaps is not told (as alerts are held):
 *    its settled Down or Up, when flapping ends, is.
 * 2. Maintenance announced: at every dispatcher cycle (at least every 30 s) the public windows
 *    the status page shows now (announced within announce_h, or active) are looked at; one not
 *    told yet (by window and start) becomes a notice and its mail rows in one transaction.
 */
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { publicServiceRows } from '../catalog/monitors.repository';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import type { AlertCauseRecord } from '../engine/alerts/alert-causes';
import { EngineService } from '../engine/engine.service';
import { allWindows } from '../engine/maintenance/windows.table';
import { publicWindowsAt } from '../maintenance/public-windows';
import { StatusPageService } from '../status/settings/status-page.service';
import { SubscriberDispatcher } from './subscriber-dispatcher.service';
import { fanOutIn, insertNoticeIn, NoticeKind } from './subscriber-mail.table';
import type { NoticePayload } from './subscriber-mails';

@Injectable()
export class SubscriberNotices implements OnModuleInit {
  constructor(
    private readonly db: Database,
    private readonly engine: EngineService,
    private readonly pages: StatusPageService,
    private readonly dispatcher: SubscriberDispatcher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.engine.addCauseSink({
      write: (tx, causes) => this.write(tx, causes),
      committed: () => this.dispatcher.wake(),
    });
    this.dispatcher.onCycle(() => this.announceMaintenance());
  }

  private async listening(): Promise<boolean> {
    const s = await this.pages.settings();
    return s.enabled && s.subscribers;
  }

  /** Inside the writer's transaction (step 1). */
  async write(tx: EntityManager, causes: readonly AlertCauseRecord[]): Promise<void> {
    const told = causes.filter(
      (r) => (r.cause === 'down' || r.cause === 'up') && !r.held && r.incidentId !== null && r.config.public,
    );
    if (told.length === 0 || !(await this.listening())) return;
    for (const r of told) {
      const service = r.config.public_name ?? r.config.name;
      const startedAt = r.at - (r.durationMs ?? 0);
      const payload: NoticePayload =
        r.cause === 'down'
          ? { kind: 'opened', service, started_at: startedAt }
          : { kind: 'resolved', service, started_at: startedAt, ended_at: r.at };
      await this.noticeIn(tx, payload.kind, `${payload.kind}:${r.incidentId}`, payload, r.at);
    }
  }

  /** Step 2: in a transaction of its own; the dispatcher sends right after (it is in its cycle). */
  async announceMaintenance(): Promise<void> {
    if (!(await this.listening())) return;
    const now = this.clock.now();
    const windows = (await allWindows(this.db)).filter((w) => w.public);
    if (windows.length === 0) return;
    const services = await publicServiceRows(this.db, []);
    await this.db.tx(async (m) => {
      for (const w of windows) {
        const [shown] = publicWindowsAt([w], now);
        if (!shown) continue;
        // As the status page shows it: only the public services it holds, and not at all without one.
        const names = services
          .filter((s) => shown.monitors === null || shown.monitors.includes(s.id))
          .map((s) => s.public_name ?? s.name);
        if (names.length === 0) continue;
        const payload: NoticePayload = {
          kind: 'maintenance',
          title: w.title,
          description: w.description,
          starts_at: shown.starts_at,
          ends_at: shown.ends_at,
          services: names,
        };
        await this.noticeIn(m, 'maintenance', `maintenance:${w.id}:${shown.starts_at}`, payload, now);
      }
    });
  }

  private async noticeIn(tx: EntityManager, kind: NoticeKind, ref: string, payload: NoticePayload, now: number) {
    const id = await insertNoticeIn(tx, kind, ref, payload, now);
    if (id !== null) await fanOutIn(tx, id, now);
  }
}
