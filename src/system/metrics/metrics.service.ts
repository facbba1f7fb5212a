/**
 * GET /metrics (docs/metrics.md): the Prometheus exposition, answered from what the engine, the
 * writer, the blind gate and the dispatcher hold in memory. No table is read: a scrape every 15 s
 * of 10,000 monitors must cost the service next to nothing.
 */
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import type { Caller } from '../../common/access/caller';
import { ApiError } from '../../common/http/api-error';
import { SettingsService } from '../../settings/settings.service';
import { monitorEventLoopDelay, IntervalHistogram } from 'node:perf_hooks';
import { CLOCK, Clock } from '../../common/clock';
import { DispatcherService } from '../../channels/dispatcher.service';
import { BlindGate } from '../../engine/blind/blind-gate';
import { EngineService } from '../../engine/engine.service';
import { CheckWriter } from '../../history/writer';
import { STARTED_AT } from '../health.controller';
import { cmp, MetricMonitor, MetricsSnapshot, MonitorLabels, monitorLabels, writeMetrics } from './metric-families';
import { PROM_CONTENT_TYPE, PromWriter } from './prom-text';

/** The event loop's delay is reported over windows of about this length. */
const LAG_WINDOW_MS = 60_000;

@Injectable()
export class MetricsService implements OnModuleDestroy {
  /** The monitors by slug, kept until the engine's set changes (liveView().changes). */
  private order: { changes: number; monitors: MetricMonitor[]; labels: MonitorLabels[] } = {
    changes: -1,
    monitors: [],
    labels: [],
  };
  /** Writers not in use: a scrape takes one and gives it back once its answer is sent, so its buffer is reused. */
  private readonly idle: PromWriter[] = [];
  private readonly lag: IntervalHistogram;
  private lagWindowStart: number;
  private lastLagP99 = 0;

  constructor(
    private readonly engine: EngineService,
    private readonly writer: CheckWriter,
    private readonly blind: BlindGate,
    private readonly dispatcher: DispatcherService,
    private readonly settings: SettingsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(STARTED_AT) private readonly startedAt: number,
  ) {
    this.lag = monitorEventLoopDelay({ resolution: 10 });
    this.lag.enable();
    this.lagWindowStart = clock.now();
  }

  onModuleDestroy(): void {
    this.lag.disable();
  }

  /**
   * The route's answer. Any signed-in caller passes (`read` is the least scope); without one, only
   * while the owner has made the metrics public. Never cached: each scrape is a fresh reading.
   */
  async answer(caller: Caller | null, res: Response): Promise<void> {
    if (!caller && !(await this.settings.get()).metrics_public) {
      throw new ApiError(
        'sign_in',
        'GET /metrics needs an API key (Authorization: Bearer fs_...) or a session, unless the setting metrics_public is on',
      );
    }
    const { bytes, done } = this.scrape();
    res.setHeader('Content-Type', PROM_CONTENT_TYPE);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Length', String(bytes.length));
    res.once('close', done);
    res.end(bytes);
  }

  /**
   * Writes the exposition and hands it to `send`; the writer is reused once `done` is called
   * (the bytes are a view of its buffer, so they must not be touched after that).
   */
  scrape(): { bytes: Buffer; done: () => void } {
    const w = this.idle.pop() ?? new PromWriter(256 * 1024);
    w.reset();
    writeMetrics(w, this.snapshot());
    let given = false;
    return {
      bytes: w.bytes(),
      done: () => {
        if (given) return;
        given = true;
        // One spare is enough: scrapes rarely overlap, and a second buffer of megabytes kept idle would be waste.
        if (this.idle.length === 0) this.idle.push(w);
      },
    };
  }

  private snapshot(): MetricsSnapshot {
    const now = this.clock.now();
    const view = this.engine.liveView();
    if (view.changes !== this.order.changes) {
      const monitors = [...view.monitors];
      monitors.sort((a, b) => cmp(a.config.slug, b.config.slug));
      this.order = { changes: view.changes, monitors, labels: monitors.map((m) => monitorLabels(m.config)) };
    }
    const cpu = process.cpuUsage();
    return {
      now,
      monitors: this.order.monitors,
      labels: this.order.labels,
      countsOf: view.countsOf,
      // The engine's book of windows says which monitors one holds now (engine/maintenance/).
      inMaintenance: (id: number) => this.engine.maintenance.markOf(id) !== null,
      alerts: this.dispatcher.alertAttempts(),
      incidentsOpen: this.engine.incidents.openCount,
      blind: this.blind.status().active,
      writerQueue: this.writer.stats.buffered,
      process: {
        rssBytes: process.memoryUsage.rss(),
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        startTimeSeconds: Math.floor(this.startedAt / 1000),
        loopLagSeconds: this.lagP99(now),
      },
    };
  }

  /** The 99th percentile of the loop's delay in the current window (or the last whole one, early in a window). */
  private lagP99(now: number): number {
    const current = this.lag.count > 0 ? this.lag.percentile(99) / 1e9 : 0;
    if (now - this.lagWindowStart >= LAG_WINDOW_MS) {
      this.lastLagP99 = current;
      this.lag.reset();
      this.lagWindowStart = now;
      return current;
    }
    return Math.max(current, this.lastLagP99);
  }
}
