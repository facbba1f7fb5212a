/**
 * The alert storm's eight service channels (ntfy, Gotify, Telegram, Pushover, Matrix, PagerDuty,
 * Home Assistant, Apprise), all on one loopback server emulating their APIs
 * (harness/servers/service-apis.ts). What each received is matched with the delivery log: a
 * message's monitors are its delivery row's monitor_ids, since a push message names only its
 * first events and counts the rest. PagerDuty takes one event per request: one delivery makes a
 * trigger per incident, and its dedup keys are the incidents.
 */
import {
  Service as ServiceKind,
  ServiceApis,
  serviceApiEnv,
  serviceConfigs,
  startServiceApis,
} from '../../harness/servers/service-apis';
import { requestJson } from '../../harness/http-client';
import type { KeyPool } from '../../harness/service';
import { atMost, metric, Metric } from '../report';

export const SERVICE_KINDS: ServiceKind[] = [
  'ntfy',
  'gotify',
  'telegram',
  'pushover',
  'matrix',
  'pagerduty',
  'home-assistant',
  'apprise',
];

export interface ServiceDelivery {
  channel_id: number | null;
  ok: boolean;
  monitor_ids: number[] | null;
}

export { startServiceApis, serviceApiEnv };
export type { ServiceApis };

export async function createServiceChannels(
  api: string,
  keys: KeyPool,
  apis: ServiceApis,
): Promise<Record<ServiceKind, number>> {
  const configs = serviceConfigs(apis.origin);
  const ids = {} as Record<ServiceKind, number>;
  for (const kind of SERVICE_KINDS)
    ids[kind] = (
      await requestJson<{ id: number }>('POST', `${api}/channels`, {
        headers: keys.header(),
        body: { kind, name: `bench ${kind}`, config: configs[kind] },
      })
    ).id;
  return ids;
}

/** Every service channel has ok delivery rows covering every monitor, and one row per message it got. */
export function servicesDone(
  apis: ServiceApis,
  deliveries: ServiceDelivery[],
  ids: Record<ServiceKind, number>,
  n: number,
): boolean {
  return SERVICE_KINDS.every((kind) => {
    const rows = deliveries.filter((d) => d.ok && d.channel_id === ids[kind]);
    const covered = new Set(rows.flatMap((d) => d.monitor_ids ?? [])).size;
    return covered >= n && (kind === 'pagerduty' || rows.length >= apis.of(kind).length);
  });
}

/** Messages, events per message, lost and duplicated, per service channel. */
export function serviceMetrics(
  apis: ServiceApis,
  deliveries: ServiceDelivery[],
  ids: Record<ServiceKind, number>,
  monitors: number[],
  windows: number,
): { metrics: Metric[]; missing: number; twice: number; notes: string[] } {
  const metrics: Metric[] = [];
  let missing = 0;
  let twice = 0;
  const words: string[] = [];
  for (const kind of SERVICE_KINDS) {
    const rows = deliveries.filter((d) => d.ok && d.channel_id === ids[kind]);
    const covered = new Set(rows.flatMap((d) => d.monitor_ids ?? []));
    const lost = monitors.filter((id) => !covered.has(id)).length;
    const got = apis.of(kind).length;
    // A message is taken twice when the service got more messages than the log has sent ones
    // (PagerDuty: an incident triggered twice).
    const again =
      kind === 'pagerduty'
        ? [...apis.pagerduty.values()].reduce((sum, a) => sum + a.triggers - 1, 0)
        : Math.max(0, got - rows.length);
    missing += lost;
    twice += again;
    metrics.push(
      metric(`${kind}: messages (delivery rows sent)`, rows.length, '', atMost(windows)),
      metric(`${kind}: events in the largest message`, Math.max(0, ...rows.map((d) => d.monitor_ids?.length ?? 0)), ''),
    );
    words.push(`${kind} ${rows.length} message(s), ${got} API call(s), ${lost} lost, ${again} twice`);
  }
  const failed = apis.requests.length - apis.accepted.length;
  metrics.push(
    metric('services: Downs that did not reach a channel (monitor × channel)', missing, '', atMost(0)),
    metric('services: messages taken twice', twice, '', atMost(0)),
    metric('services: API calls refused', failed, '', atMost(0)),
  );
  return {
    metrics,
    missing,
    twice,
    notes: [
      `service channels (emulated APIs on loopback): ${words.join('; ')}; PagerDuty makes one Events API call per incident (its API takes one event per request), all in one delivery`,
    ],
  };
}
