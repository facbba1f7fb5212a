import { socketProblem } from './docker';

const unix = { transport: 'unix', socketPath: '/var/run/docker.sock' } as const;
const tcp = { transport: 'tcp', host: 'nas.lan', port: 2375 } as const;
const err = (code: string) => Object.assign(new Error(code), { code });

describe('socketProblem', () => {
  it.each([
    [
      unix,
      'EACCES',
      'permission',
      'permission denied on /var/run/docker.sock: the service user needs the docker group (docs/checks.md, "docker")',
    ],
    [
      unix,
      'EPERM',
      'permission',
      'permission denied on /var/run/docker.sock: the service user needs the docker group (docs/checks.md, "docker")',
    ],
    [
      unix,
      'ENOENT',
      'connect',
      "no Docker socket at /var/run/docker.sock: is Docker (or podman's API service) running here?",
    ],
    [unix, 'ECONNREFUSED', 'refused', 'nothing listens on /var/run/docker.sock: is Docker running?'],
    [tcp, 'ECONNREFUSED', 'refused', 'connection refused by nas.lan:2375'],
  ] as const)('%j %s → %s', (endpoint, code, expected, message) => {
    expect(
      socketProblem(err(code), endpoint, endpoint.transport === 'unix' ? endpoint.socketPath : 'nas.lan:2375'),
    ).toEqual({
      code: expected,
      message,
    });
  });
});
