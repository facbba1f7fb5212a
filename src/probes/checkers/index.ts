/**
 * The one entry point the engine calls: dispatch by kind, then mark a good but slow result.
 * Heartbeat monitors are never probed (they wait for pings), so asking for one is a caller bug.
 */
import type { CheckResult } from '../check-result';
import type { CheckContext, KindSettings, MonitorKind } from '../kinds';
import { applySlow } from '../judge/slow';
import { checkDns } from './dns';
import type { CheckerEnv } from './env';
import { checkHttp } from './http';
import { checkPing } from './ping';
import { checkTcp } from './tcp';
import { checkTls } from './tls';
import { checkDocker } from '../services/docker';
import { checkSmtp } from '../services/smtp';
import { checkRedis } from '../services/redis';
import { checkPostgres } from '../services/postgres';
import { checkMysql } from '../services/mysql';
import { checkMqtt } from '../services/mqtt';
import { checkGrpc } from '../services/grpc';

export type { CheckerEnv } from './env';

export type ActiveKind = Exclude<MonitorKind, 'heartbeat'>;
type Checker<K extends ActiveKind> = (
  settings: KindSettings[K],
  ctx: CheckContext,
  env: CheckerEnv,
) => Promise<CheckResult>;

const CHECKERS: { [K in ActiveKind]: Checker<K> } = {
  http: checkHttp,
  tcp: checkTcp,
  ping: checkPing,
  dns: checkDns,
  tls: checkTls,
  smtp: checkSmtp,
  docker: checkDocker,
  redis: checkRedis,
  postgres: checkPostgres,
  mysql: checkMysql,
  mqtt: checkMqtt,
  grpc: checkGrpc,
};

export async function runCheck<K extends MonitorKind>(
  kind: K,
  settings: KindSettings[K],
  ctx: CheckContext,
  env: CheckerEnv,
): Promise<CheckResult> {
  if (kind === 'heartbeat') throw new Error('heartbeat monitors are not checked actively: they wait for pings');
  // TypeScript cannot tie CHECKERS[kind] to KindSettings[K] for a generic K; the map's type does.
  const check = CHECKERS[kind as ActiveKind] as (
    s: KindSettings[K],
    c: CheckContext,
    e: CheckerEnv,
  ) => Promise<CheckResult>;
  return applySlow(await check(settings, ctx, env), ctx.slow_ms);
}
