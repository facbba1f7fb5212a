/**
 * A monitor's configuration as stored and compared: every common field plus the settings of its
 * one kind, with real secret values. Answers are made from it by the mapper (which masks).
 */
import type { KindSettings, MonitorKind } from './monitor-types';

export interface CommonSettings {
  name: string;
  slug: string;
  kind: MonitorKind;
  group: string | null;
  tags: string[];
  description: string | null;
  runbook_url: string | null;
  interval_s: number;
  timeout_ms: number;
  confirm_after: number;
  retry_interval_s: number;
  recover_after: number;
  slow_ms: number | null;
  slow_after: number;
  alert_on_slow: boolean;
  channels: number[] | null;
  remind_every_min: number;
  paused: boolean;
  /** Epoch ms. */
  muted_until: number | null;
  public: boolean;
  public_name: string | null;
  public_group: string | null;
  sort: number;
}

export type MonitorConfig = CommonSettings & { settings: KindSettings[MonitorKind] };

export const COMMON_FIELDS: readonly (keyof CommonSettings)[] = [
  'name', 'slug', 'kind', 'group', 'tags', 'description', 'runbook_url', 'interval_s', 'timeout_ms', 'confirm_after',
  'retry_interval_s', 'recover_after', 'slow_ms', 'slow_after', 'alert_on_slow', 'channels', 'remind_every_min',
  'paused', 'muted_until', 'public', 'public_name', 'public_group', 'sort',
];
