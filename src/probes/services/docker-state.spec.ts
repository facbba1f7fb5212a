import { containerFacts, ContainerFacts, describeContainer, judgeContainer } from './docker-state';

const running: ContainerFacts = {
  status: 'running',
  running: true,
  paused: false,
  health: null,
  restarts: 0,
  exitCode: 0,
};

describe('containerFacts', () => {
  it.each([
    [
      'a running container with a health check',
      {
        State: { Status: 'running', Running: true, Paused: false, Health: { Status: 'healthy' }, ExitCode: 0 },
        RestartCount: 2,
      },
      { ...running, health: 'healthy', restarts: 2 },
    ],
    [
      'podman: no health check as ""',
      { State: { Status: 'running', Running: true, Health: { Status: '' } } },
      { ...running, exitCode: null },
    ],
    [
      'docker: no health check as "none"',
      { State: { Status: 'running', Running: true, Health: { Status: 'none' } } },
      { ...running, exitCode: null },
    ],
    [
      'an exited one',
      { State: { Status: 'exited', Running: false, ExitCode: 137 } },
      { ...running, status: 'exited', running: false, exitCode: 137 },
    ],
    ['a negative restart count', { State: { Running: true }, RestartCount: -1 }, { ...running, exitCode: null }],
  ])('reads %s', (_name, body, facts) => {
    expect(containerFacts(body)).toEqual(facts);
  });

  it.each([null, 'running', [], {}, { State: 'running' }, { State: { Running: 'yes' } }])('refuses %j', (body) => {
    expect(containerFacts(body)).toBeNull();
  });
});

describe('judgeContainer', () => {
  it.each([
    ['running without a health check', running, true, null],
    ['running and healthy', { ...running, health: 'healthy' }, true, null],
    ['unhealthy, require_healthy off', { ...running, health: 'unhealthy' }, false, null],
    [
      'unhealthy',
      { ...running, health: 'unhealthy' },
      true,
      'unhealthy:container web runs, but its health check says unhealthy',
    ],
    [
      'starting',
      { ...running, health: 'starting' },
      true,
      'unhealthy:container web runs, but its health check says starting (not healthy yet)',
    ],
    [
      'exited',
      { ...running, running: false, status: 'exited', exitCode: 1 },
      true,
      'not_running:container web is exited (exit code 1)',
    ],
    ['created', { ...running, running: false, status: 'created' }, true, 'not_running:container web is created'],
    ['restarting', { ...running, status: 'restarting' }, true, 'not_running:container web is restarting'],
    ['paused', { ...running, paused: true }, true, 'not_running:container web is paused'],
  ])('%s', (_name, facts, requireHealthy, expected) => {
    const error = judgeContainer('web', facts as ContainerFacts, requireHealthy);
    expect(error && `${error.code}:${error.message}`).toBe(expected);
  });
});

describe('describeContainer', () => {
  it.each([
    [running, undefined, 'running, restarts: 0'],
    [
      { ...running, health: 'healthy', restarts: 3 },
      1,
      'running, health: healthy, restarts: 3 (+2 since the last check)',
    ],
    [{ ...running, restarts: 3 }, 3, 'running, restarts: 3'],
    // Recreated: the count starts again at 0, which is no restart.
    [{ ...running, restarts: 0 }, 4, 'running, restarts: 0'],
    [{ ...running, paused: true }, undefined, 'paused, restarts: 0'],
  ])('%j after %s', (facts, previous, text) => {
    expect(describeContainer(facts, previous)).toBe(text);
  });
});
