import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../config/config';
import { DEFAULT_SPOOL_DIR, isLoopbackHost, loadAgentConfig, parseBytes, parseServerUrl } from './agent-config';

const BASE = { FARSIGHT_AGENT_SERVER: 'https://farsight.example.net', FARSIGHT_AGENT_TOKEN: 'fsl_abcdef0123456789' };

describe('loadAgentConfig', () => {
  it('takes the defaults of docs/agents.md', () => {
    const c = loadAgentConfig(BASE);
    expect(c).toMatchObject({
      server: 'https://farsight.example.net',
      token: 'fsl_abcdef0123456789',
      spoolDir: DEFAULT_SPOOL_DIR,
      spoolMaxResults: 10_000,
      spoolMaxBytes: 10_000_000,
      canaryDefaults: true,
      caFile: null,
      logLevel: 'info',
    });
    expect(c.canaries.map((x) => `${x.host}:${x.port}`)).toEqual(['1.1.1.1:443', '8.8.8.8:443', '9.9.9.9:443']);
  });

  it('reads the token from FARSIGHT_AGENT_TOKEN_FILE (a systemd credential)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-'));
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, 'fsl_fromfile\n');
    expect(
      loadAgentConfig({ FARSIGHT_AGENT_SERVER: BASE.FARSIGHT_AGENT_SERVER, FARSIGHT_AGENT_TOKEN_FILE: file }).token,
    ).toBe('fsl_fromfile');
    fs.rmSync(dir, { recursive: true });
  });

  it.each([
    [{ FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '500' }, 'spoolMaxResults', 500],
    [{ FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '20_000' }, 'spoolMaxResults', 20_000],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: '1MB' }, 'spoolMaxBytes', 1_000_000],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: '2 MiB' }, 'spoolMaxBytes', 2 * 1024 * 1024],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: '100000' }, 'spoolMaxBytes', 100_000],
    [{ FARSIGHT_AGENT_SPOOL_DIR: '/tmp/spool' }, 'spoolDir', '/tmp/spool'],
    [{ FARSIGHT_CANARIES: 'off' }, 'canaries', []],
    [{ FARSIGHT_CANARIES: '192.168.1.1:53' }, 'canaryDefaults', false],
    [{ FARSIGHT_LOG_LEVEL: 'debug' }, 'logLevel', 'debug'],
    [{ FARSIGHT_AGENT_SERVER: 'http://127.0.0.1:8080/' }, 'server', 'http://127.0.0.1:8080'],
    [{ FARSIGHT_AGENT_SERVER: 'https://example.net/farsight/' }, 'server', 'https://example.net/farsight'],
  ])('%j sets %s to %j', (env, key, value) => {
    expect(loadAgentConfig({ ...BASE, ...env })[key as keyof ReturnType<typeof loadAgentConfig>]).toEqual(value);
  });

  it.each([
    [{ FARSIGHT_AGENT_SERVER: undefined }, /^FARSIGHT_AGENT_SERVER is not set/],
    [{ FARSIGHT_AGENT_TOKEN: undefined }, /^FARSIGHT_AGENT_TOKEN is not set/],
    [{ FARSIGHT_AGENT_TOKEN: 'two words' }, /^FARSIGHT_AGENT_TOKEN: not a token/],
    [{ FARSIGHT_AGENT_TOKEN: 'x'.repeat(513) }, /^FARSIGHT_AGENT_TOKEN: not a token/],
    [{ FARSIGHT_AGENT_SERVER: 'farsight.example.net' }, /^FARSIGHT_AGENT_SERVER: not a URL/],
    [{ FARSIGHT_AGENT_SERVER: 'ftp://farsight.example.net' }, /must be an https URL/],
    [{ FARSIGHT_AGENT_SERVER: 'http://farsight.example.net' }, /http is only allowed to a loopback address/],
    [{ FARSIGHT_AGENT_SERVER: 'http://192.168.1.10:8080' }, /use https:\/\/192\.168\.1\.10:8080/],
    [{ FARSIGHT_AGENT_SERVER: 'https://u:p@farsight.example.net' }, /must not carry credentials/],
    [{ FARSIGHT_AGENT_SERVER: 'https://farsight.example.net/?x=1' }, /must not carry credentials, a query/],
    [{ FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '5' }, /^FARSIGHT_AGENT_SPOOL_MAX_RESULTS: expected a whole number from 10/],
    [{ FARSIGHT_AGENT_SPOOL_MAX_RESULTS: 'many' }, /^FARSIGHT_AGENT_SPOOL_MAX_RESULTS/],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: '1KB' }, /^FARSIGHT_AGENT_SPOOL_MAX_BYTES: expected a size from 64KB/],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: '10 parsecs' }, /^FARSIGHT_AGENT_SPOOL_MAX_BYTES/],
    [{ FARSIGHT_AGENT_CA_FILE: '/nonexistent/ca.pem' }, /^FARSIGHT_AGENT_CA_FILE: cannot read/],
    [{ FARSIGHT_CANARIES: 'no' }, /^FARSIGHT_CANARIES/],
    [{ FARSIGHT_LOG_LEVEL: 'loud' }, /^FARSIGHT_LOG_LEVEL/],
  ])('refuses %j with a line naming the variable', (env, message) => {
    const run = () => loadAgentConfig({ ...BASE, ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  it('never repeats the token in its refusal', () => {
    expect(() => loadAgentConfig({ ...BASE, FARSIGHT_AGENT_TOKEN: 'secret value' })).not.toThrow(/secret value/);
  });
});

describe('parseServerUrl and isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['[::1]', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['example.net', false],
    ['localhost.example.net', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('allows http to [::1] and keeps a path prefix', () => {
    expect(parseServerUrl('http://[::1]:8080/monitor')).toBe('http://[::1]:8080/monitor');
  });
});

describe('parseBytes', () => {
  it.each([
    [undefined, 10_000_000],
    ['64KB', 64_000],
    ['10GB', 10_000_000_000],
    ['1.5MB', 1_500_000],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseBytes('X', text)).toBe(bytes);
  });
});
