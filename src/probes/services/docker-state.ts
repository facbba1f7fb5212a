/**
 * The verdict on a container from the Engine API's answer (GET /containers/{id}/json, its
 * `State` and `RestartCount`): running, paused, health, and restarts since the last check. Pure.
 * https://docs.docker.com/reference/api/engine/version/v1.43/#tag/Container/operation/ContainerInspect
 */
import type { CheckError } from '../check-result';

export interface ContainerFacts {
  status: string;
  running: boolean;
  paused: boolean;
  /** null when the container has no health check. */
  health: string | null;
  restarts: number;
  exitCode: number | null;
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The facts in an inspect answer, or null when it is not one (a proxy's page, garbage). */
export function containerFacts(body: unknown): ContainerFacts | null {
  if (!isPlain(body) || !isPlain(body.State)) return null;
  const s = body.State;
  if (typeof s.Running !== 'boolean') return null;
  const health = isPlain(s.Health) && typeof s.Health.Status === 'string' ? s.Health.Status : null;
  return {
    status: typeof s.Status === 'string' ? s.Status : s.Running ? 'running' : 'exited',
    running: s.Running,
    paused: s.Paused === true,
    // Docker answers "none" for a container whose image has no HEALTHCHECK, podman an empty text.
    health: health === '' || health === 'none' ? null : health,
    restarts: typeof body.RestartCount === 'number' && body.RestartCount >= 0 ? body.RestartCount : 0,
    exitCode: typeof s.ExitCode === 'number' ? s.ExitCode : null,
  };
}

export function judgeContainer(name: string, f: ContainerFacts, requireHealthy: boolean): CheckError | null {
  if (!f.running || f.status === 'restarting') {
    const exit = f.exitCode !== null && f.status === 'exited' ? ` (exit code ${f.exitCode})` : '';
    return { code: 'not_running', message: `container ${name} is ${f.status}${exit}` };
  }
  if (f.paused) return { code: 'not_running', message: `container ${name} is paused` };
  if (requireHealthy && f.health !== null && f.health !== 'healthy') {
    const why = f.health === 'starting' ? 'starting (not healthy yet)' : f.health;
    return { code: 'unhealthy', message: `container ${name} runs, but its health check says ${why}` };
  }
  return null;
}

/** The detail line: state, health, and restarts (with the change since the last check, when known). */
export function describeContainer(f: ContainerFacts, previousRestarts: number | undefined): string {
  const parts = [f.paused ? 'paused' : f.status];
  if (f.health !== null) parts.push(`health: ${f.health}`);
  const more = previousRestarts !== undefined && f.restarts > previousRestarts ? f.restarts - previousRestarts : 0;
  parts.push(`restarts: ${f.restarts}${more ? ` (+${more} since the last check)` : ''}`);
  return parts.join(', ');
}
