import 'reflect-metadata';
import type { MonitorDto } from './dto/monitor.dto';
import { isHostOrIp } from './monitor-rules';
import { serviceRuleErrors } from './service-rules';

type Plain = Record<string, unknown>;

const SMTP = { host: 'mail.lan', port: 587, tls: 'starttls', tls_verify: true, tls_warn_days: 14 };
const DOCKER = { container: 'web', endpoint: 'unix:///var/run/docker.sock', require_healthy: true };

const errors = (kind: 'smtp' | 'docker', settings: Plain) =>
  serviceRuleErrors(
    { kind, [kind]: { ...(kind === 'smtp' ? SMTP : DOCKER), ...settings } } as unknown as MonitorDto,
    kind,
    isHostOrIp,
  );

describe('serviceRuleErrors', () => {
  it.each<[string, 'smtp' | 'docker', Plain, string[]]>([
    ['a valid smtp monitor', 'smtp', {}, []],
    ['an smtp host with a port', 'smtp', { host: 'mail.lan:25' }, ['smtp.host']],
    ['a unicode smtp host', 'smtp', { host: 'müller.lan' }, ['smtp.host']],
    ['an smtp URL as host', 'smtp', { host: 'smtp://mail.lan' }, ['smtp.host']],
    ['a valid docker monitor', 'docker', {}, []],
    ['a tcp endpoint', 'docker', { endpoint: 'tcp://10.0.0.2:2375' }, []],
    ['an https endpoint', 'docker', { endpoint: 'https://docker.lan' }, []],
    ['an http endpoint', 'docker', { endpoint: 'http://docker.lan' }, ['docker.endpoint']],
    ['a relative socket', 'docker', { endpoint: 'unix://docker.sock' }, ['docker.endpoint']],
    ['a port out of range', 'docker', { endpoint: 'tcp://docker.lan:99999' }, ['docker.endpoint']],
    ['a container with a path', 'docker', { container: 'web/../../info' }, ['docker.container']],
    ['a container with a query', 'docker', { container: 'web?x=1' }, ['docker.container']],
  ])('%s', (_name, kind, settings, fields) => {
    expect(errors(kind, settings).map((e) => e.field)).toEqual(fields);
  });

  it('says what an endpoint must look like', () => {
    expect(errors('docker', { endpoint: 'ssh://nas' })).toEqual([
      {
        field: 'docker.endpoint',
        message: 'must be unix:///path/to/docker.sock, tcp://host:port or https://host:port',
      },
    ]);
  });
});
