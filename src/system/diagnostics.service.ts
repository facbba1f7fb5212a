/**
 * GET /diagnostics (docs/diagnostics.md names every field): is the service healthy, and what is it
 * costing. Read-only; everything comes from what the services already count, plus one small query
 * per table. Secrets never appear: problems are masked by the logger's ring, and nothing else here
 * holds one.
 */
import { Inject, Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import { CLOCK, Clock } from '../common/clock';
import { recentProblems, LoggedProblem } from '../common/recent-problems';
import { toIso } from '../common/time';
import { VERSION } from '../common/version';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { databasePath } from '../db/data-source';
import { Database } from '../db/database';
import { allMonitorRows, MonitorsRepository } from '../catalog/monitors.repository';
import { messageCountsByState } from '../channels/outbox.table';
import { emailsFailedSince } from '../mail/deliveries.table';
import { BlindGate } from '../engine/blind/blind-gate';
import { EngineService } from '../engine/engine.service';
import { CheckWriter } from '../history/writer';
import { MailService } from '../mail/mail.service';
import { MONITOR_KINDS, MonitorKind } from '../probes/kinds';
import { EgressEstimate, egressEstimate } from './egress';
import { STARTED_AT } from './health.controller';
import { WatchdogAnswer, WatchdogService } from './watchdog/watchdog.service';

const OUTBOX_STATES = ['pending', 'sending', 'retrying', 'sent', 'failed'] as const;

export interface DiagnosticsAnswer {
  version: string;
  started_at: string;
  uptime_s: number;
  memory: { rss_bytes: number; heap_used_bytes: number; heap_total_bytes: number; external_bytes: number };
  monitors: { total: number; running: number; paused: number; by_kind: Record<MonitorKind, number> };
  checks_per_min: number;
  database: {
    size_bytes: number;
    wal_bytes: number;
    writable: boolean;
    failing_since: string | null;
    last_error: string | null;
  };
  writer: {
    queue_length: number;
    last_flush_at: string | null;
    last_flush_ms: number | null;
    written: number;
    flushes: number;
    failures: number;
    failing_in_row: number;
    dropped: number;
    last_error: string | null;
    last_error_at: string | null;
  };
  scheduler: {
    scheduled: number;
    in_flight: number;
    lateness_p50_ms: number;
    lateness_p99_ms: number;
    lateness_max_ms: number;
    lateness_samples: number;
  };
  canary: {
    detection: string;
    blind: boolean;
    blind_since: string | null;
    canaries: { canary: string; answered: boolean }[];
  };
  outbox: Record<(typeof OUTBOX_STATES)[number], number>;
  /** `note`: mail is not configured, said once as a state (with the variables to set), or null. */
  email: {
    configured: boolean;
    providers: string[];
    daily_cap: number;
    sent_today: number;
    failed_today: number;
    cap_reached: boolean;
    note: string | null;
  };
  egress: EgressEstimate;
  /** The dead-man ping of the service itself (docs/watchdog.md). */
  watchdog: WatchdogAnswer;
  problems: LoggedProblem[];
}

@Injectable()
export class DiagnosticsService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly engine: EngineService,
    private readonly blind: BlindGate,
    private readonly writer: CheckWriter,
    private readonly mail: MailService,
    private readonly watchdog: WatchdogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(STARTED_AT) private readonly startedAt: number,
  ) {}

  async get(): Promise<DiagnosticsAnswer> {
    const now = this.clock.now();
    const mem = process.memoryUsage();
    const rows = await allMonitorRows(this.db);
    const byKind = Object.fromEntries(MONITOR_KINDS.map((k) => [k, 0])) as Record<MonitorKind, number>;
    for (const r of rows) byKind[r.kind] += 1;
    const paused = rows.filter((r) => r.paused === 1).length;
    // The engine's configurations hold the secrets in clear (their lengths count); a monitor it has not loaded yet is read sealed.
    const configs = rows.map((r) => this.engine.configOf(r.id) ?? this.repo.toListed(r).config);
    const health = this.db.health();
    const w = this.writer.stats;
    const sched = this.engine.stats();
    const blind = this.blind.status();
    const cap = await this.mail.cap();
    const status = await this.mail.status();
    const failed = await emailsFailedSince(this.db, cap.day);
    return {
      version: VERSION,
      started_at: toIso(this.startedAt),
      uptime_s: Math.floor((now - this.startedAt) / 1000),
      memory: {
        rss_bytes: mem.rss,
        heap_used_bytes: mem.heapUsed,
        heap_total_bytes: mem.heapTotal,
        external_bytes: mem.external,
      },
      monitors: { total: rows.length, running: rows.length - paused, paused, by_kind: byKind },
      checks_per_min: this.engine.checksPerMinute(),
      database: {
        size_bytes: fileSize(databasePath(this.config.dataDir)),
        wal_bytes: fileSize(`${databasePath(this.config.dataDir)}-wal`),
        writable: health.writable,
        failing_since: toIso(health.failingSince),
        last_error: health.lastError,
      },
      writer: {
        queue_length: w.buffered,
        last_flush_at: toIso(w.lastFlushAt),
        last_flush_ms: w.lastFlushMs,
        written: w.written,
        flushes: w.flushes,
        failures: w.failures,
        failing_in_row: w.failingInRow,
        dropped: w.dropped,
        last_error: w.lastError,
        last_error_at: toIso(w.lastErrorAt),
      },
      scheduler: {
        scheduled: sched.monitors,
        in_flight: sched.inFlight,
        lateness_p50_ms: Math.round(sched.lateness.p50),
        lateness_p99_ms: Math.round(sched.lateness.p99),
        lateness_max_ms: Math.round(sched.lateness.max),
        lateness_samples: sched.lateness.samples,
      },
      canary: {
        detection: blind.detection,
        blind: blind.active,
        blind_since: toIso(blind.since),
        canaries: this.blind.canaryStates(),
      },
      outbox: await this.outboxCounts(),
      email: {
        configured: status.configured,
        providers: status.providers,
        daily_cap: cap.cap,
        sent_today: cap.sent,
        failed_today: failed,
        cap_reached: cap.reached,
        note: this.mail.notConfiguredNote(),
      },
      egress: egressEstimate(configs),
      watchdog: await this.watchdog.status(),
      problems: recentProblems.list(),
    };
  }

  private async outboxCounts(): Promise<DiagnosticsAnswer['outbox']> {
    const rows = await messageCountsByState(this.db);
    const out = Object.fromEntries(OUTBOX_STATES.map((s) => [s, 0])) as DiagnosticsAnswer['outbox'];
    for (const r of rows)
      if ((OUTBOX_STATES as readonly string[]).includes(r.state)) out[r.state as keyof typeof out] = r.n;
    return out;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
