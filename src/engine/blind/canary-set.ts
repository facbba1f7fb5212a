/**
 * Which canaries a process probes: FARSIGHT_CANARIES as given, or the defaults plus the local
 * gateway and resolvers. Shared by the service's blind gate and the agent (src/agent/), which
 * judges its own uplink the same way; no Nest, no database.
 */
import type { AppConfig } from '../../config/config';
import { Canary, canaryKey } from './canaries';
import { localCanaries } from './local-canaries';

/** FARSIGHT_CANARIES as given; when it is unset, the defaults plus the local gateway and resolvers, each address once. */
export function canarySet(
  config: Pick<AppConfig, 'canaries' | 'canaryDefaults'>,
  local: () => Canary[] = localCanaries,
): Canary[] {
  const out: Canary[] = config.canaries.map((c) => ({ host: c.host, port: c.port }));
  if (!config.canaryDefaults || out.length === 0) return out;
  for (const c of local()) if (!out.some((o) => canaryKey(o) === canaryKey(c))) out.push(c);
  return out;
}
