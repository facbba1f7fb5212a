/**
 * A monitor's configuration as stored and compared: every common field plus the settings of its
 * one kind, with real secret values. Answers are made from it by the mapper (which masks).
 * `kind` and `settings` travel together as a discriminated union: `if (c.kind === 'http')`
 * narrows `c.settings` to HttpSettings, so no cast is needed anywhere.
 */
import type { KindSettings, MonitorKind } from './kinds';

export interface CommonSettings {
  name: string;
  slug: string;
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
  /** Ids of the monitors this one depends on (docs/dependencies.md): at most 10, no cycle. */
  depends_on: number[];
  /** The locations that check it, by name (docs/agents.md): 1-10, `local` is the service itself. */
  locations: string[];
  /** How many online locations must agree for Down (and Up again); null: a majority of those online. */
  quorum: number | null;
  remind_every_min: number;
  paused: boolean;
  /** Epoch ms. */
  muted_until: number | null;
  public: boolean;
  public_name: string | null;
  public_group: string | null;
  sort: number;
}

/** A kind with its own settings: `{kind: 'http', settings: HttpSettings}` and so on. */
export type KindConfig = { [K in MonitorKind]: { kind: K; settings: KindSettings[K] } }[MonitorKind];

export type MonitorConfig = CommonSettings & KindConfig;

/**
 * Pairs a kind with settings that were validated for it elsewhere (input parsing, stored rows):
 * the one place where the pairing is taken on trust.
 */
export function kindConfig(kind: MonitorKind, settings: KindSettings[MonitorKind]): KindConfig {
  return { kind, settings } as KindConfig;
}

export const COMMON_FIELDS: readonly (keyof CommonSettings | 'kind')[] = [
  'name',
  'slug',
  'kind',
  'group',
  'tags',
  'description',
  'runbook_url',
  'interval_s',
  'timeout_ms',
  'confirm_after',
  'retry_interval_s',
  'recover_after',
  'slow_ms',
  'slow_after',
  'alert_on_slow',
  'channels',
  'depends_on',
  'locations',
  'quorum',
  'remind_every_min',
  'paused',
  'muted_until',
  'public',
  'public_name',
  'public_group',
  'sort',
];
