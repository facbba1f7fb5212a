/** The one mapper from a stored monitor to its answer: secrets masked, times formatted. */
import { toIso } from '../common/time';
import type { MonitorConfig } from '../probes/monitor-config';
import { StateAnswer } from '../probes/status';
import { MonitorStats } from '../history/monitor-stats';
import { StoredMonitor } from '../catalog/monitors.repository';
import { maskSecrets } from '../common/secrets/secret-fields';
import { KIND_SECRETS } from '../probes/kind-secrets';
import { describeTarget } from '../probes/target';

export type MonitorDto = Record<string, unknown> & { id: number; slug: string };

/** The writable fields in answer shape, with real secrets (PATCH merges over this). */
export function configToBody(c: MonitorConfig): Record<string, unknown> {
  const { settings, muted_until, ...common } = c;
  return { ...common, muted_until: toIso(muted_until), [c.kind]: structuredClone(settings) };
}

export function toMonitorDto(m: StoredMonitor, state: StateAnswer, stats: MonitorStats): MonitorDto {
  const c = m.config;
  const settings = maskSecrets(c.settings, KIND_SECRETS[c.kind]);
  return {
    id: m.id,
    name: c.name,
    slug: c.slug,
    kind: c.kind,
    target: describeTarget(c),
    group: c.group,
    tags: [...c.tags],
    description: c.description,
    runbook_url: c.runbook_url,
    interval_s: c.interval_s,
    timeout_ms: c.timeout_ms,
    confirm_after: c.confirm_after,
    retry_interval_s: c.retry_interval_s,
    recover_after: c.recover_after,
    slow_ms: c.slow_ms,
    slow_after: c.slow_after,
    alert_on_slow: c.alert_on_slow,
    channels: c.channels === null ? null : [...c.channels],
    depends_on: [...c.depends_on],
    locations: [...c.locations],
    quorum: c.quorum,
    remind_every_min: c.remind_every_min,
    paused: c.paused,
    muted_until: toIso(c.muted_until),
    public: c.public,
    public_name: c.public_name,
    public_group: c.public_group,
    sort: c.sort,
    [c.kind]: settings,
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    state,
    stats,
  };
}
