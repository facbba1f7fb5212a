import { DeepReadonly, deepFreeze } from '../common/freeze';

/**
 * The service-wide settings and their defaults (stored as key/value rows; a missing row means
 * the default). The settings API arrives later; monitors read their defaults from here now.
 */
export interface MonitorDefaults {
  interval_s: number;
  timeout_ms: number;
  confirm_after: number;
  retry_interval_s: number;
  recover_after: number;
  slow_after: number;
}

export interface Retention {
  checks_days: number;
  hourly_days: number;
  events_days: number;
}

export interface StoredSettings {
  defaults: MonitorDefaults;
  tz_offset_min: number;
  daily_cap: number;
  retention: Retention;
  allow_private_targets: boolean;
  /** GET /metrics answers without a key or session (docs/metrics.md). */
  metrics_public: boolean;
  /** The dead-man ping of the service itself (docs/watchdog.md); `url` is stored sealed. */
  watchdog: WatchdogSettings | null;
}

export interface WatchdogSettings {
  url: string;
  interval_s: number;
}

/** Settings as handed out: shared by every reader, so frozen. */
export type Settings = DeepReadonly<StoredSettings>;

export const DEFAULT_SETTINGS: Settings = deepFreeze({
  defaults: {
    interval_s: 60,
    timeout_ms: 10_000,
    confirm_after: 2,
    retry_interval_s: 10,
    recover_after: 1,
    slow_after: 3,
  },
  tz_offset_min: 0,
  daily_cap: 200,
  // docs/storage.md: 1,000 monitors at 60 s stay under 1 GB with these.
  retention: { checks_days: 7, hourly_days: 35, events_days: 400 },
  allow_private_targets: true,
  metrics_public: false,
  watchdog: null,
});
