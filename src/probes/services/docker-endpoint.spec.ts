import { isContainerRef, parseDockerEndpoint } from './docker-endpoint';

describe('parseDockerEndpoint', () => {
  it.each([
    ['unix:///var/run/docker.sock', { transport: 'unix', socketPath: '/var/run/docker.sock' }],
    [
      'unix:///run/user/1000/podman/podman.sock',
      { transport: 'unix', socketPath: '/run/user/1000/podman/podman.sock' },
    ],
    ['tcp://nas.lan:2375', { transport: 'tcp', host: 'nas.lan', port: 2375 }],
    ['tcp://10.0.0.5', { transport: 'tcp', host: '10.0.0.5', port: 2375 }],
    ['https://docker.lan', { transport: 'https', host: 'docker.lan', port: 2376 }],
    ['https://[fd00::5]:2376/', { transport: 'https', host: 'fd00::5', port: 2376 }],
  ])('reads %s', (text, expected) => {
    expect(parseDockerEndpoint(text)).toEqual(expected);
  });

  it.each([
    ['unix://var/run/docker.sock', 'absolute path'],
    ['unix:///var/run/../../etc/passwd', 'absolute path'],
    ['unix:///var/run/docker.sock\n', 'absolute path'],
    ['http://nas.lan:2375', 'must be unix'],
    ['tcp://nas.lan:2375/containers', 'must be unix'],
    ['tcp://user:pw@nas.lan:2375', 'must be unix'],
    ['tcp://nas.lan:70000', 'from 1 to 65535'],
    ['tcp://nas.lan:0', 'from 1 to 65535'],
    ['tcp://bücher.lan:2375', 'xn--'],
    ['tcp://999.1.1.1:2375', 'not a host name'],
    ['', 'must be unix'],
  ])('refuses %j', (text, message) => {
    expect(parseDockerEndpoint(text)).toEqual(expect.stringContaining(message));
  });
});

describe('isContainerRef', () => {
  it.each([
    ['web', true],
    ['/web', true],
    ['my_app.db-1', true],
    ['3f4e8a9b2c1d', true],
    ['', false],
    ['-web', false],
    ['web/../../images', false],
    ['web?all=1', false],
    ['web%2F..', false],
  ])('%j → %s', (text, ok) => {
    expect(isContainerRef(text)).toBe(ok);
  });
});
