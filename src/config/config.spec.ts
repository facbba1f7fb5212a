import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  adoptSavedPublicUrl,
  AppConfig,
  ConfigError,
  LETS_ENCRYPT_DIRECTORY,
  ListenAddress,
  loadConfig,
  parseListen,
  rootRefusal,
  TURNSTILE_VERIFY_URL,
} from './config';

/** Runs loadConfig and returns the ConfigError it throws (fails the test when it does not throw one). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) did not throw`);
}

describe('the public URL saved at setup', () => {
  it.each([
    ['replaces the default', {}, 'http://192.168.1.5:8080', 'http://192.168.1.5:8080', 'setting'],
    ['is normalised like FARSIGHT_PUBLIC_URL', {}, 'http://NAS.lan:8080/', 'http://nas.lan:8080', 'setting'],
    [
      'gives way to FARSIGHT_PUBLIC_URL',
      { FARSIGHT_PUBLIC_URL: 'https://status.example.com' },
      'http://192.168.1.5:8080',
      'https://status.example.com',
      'env',
    ],
  ])('%s', (_, env, saved, url, source) => {
    const config = loadConfig(env);
    adoptSavedPublicUrl(config, saved);
    expect({ url: config.publicUrl, origin: config.publicOrigin, source: config.publicUrlSource }).toEqual({
      url,
      origin: new URL(url).origin,
      source,
    });
  });

  it('stops the start when the saved row is not a URL, naming where it comes from', () => {
    expect(() => adoptSavedPublicUrl(loadConfig({}), 'ftp://x')).toThrow(
      /the public URL saved at setup \(settings row public_url\)/,
    );
  });

  it('is "env" when FARSIGHT_PUBLIC_URL is set, even to the default', () => {
    expect(loadConfig({ FARSIGHT_PUBLIC_URL: 'http://localhost:8080' }).publicUrlSource).toBe('env');
  });
});

describe('loadConfig defaults', () => {
  it('gives the documented default for every variable when the environment is empty', () => {
    expect(loadConfig({})).toEqual<AppConfig>({
      dataDir: path.resolve('./data'),
      listen: { host: '0.0.0.0', port: 8080 },
      publicUrl: 'http://localhost:8080',
      publicOrigin: 'http://localhost:8080',
      publicUrlSource: 'default',
      httpsListen: null,
      acmeHttpListen: null,
      acmeDirectory: LETS_ENCRYPT_DIRECTORY,
      acmeCaFile: null,
      dnsServers: null,
      smtp: null,
      smtpFallback: null,
      mailFrom: 'Farsight <farsight@localhost>',
      canaries: [
        { host: '1.1.1.1', port: 443 },
        { host: '8.8.8.8', port: 443 },
        { host: '9.9.9.9', port: 443 },
      ],
      canaryDefaults: true,
      trustProxy: [],
      serverIps: null,
      challenge: null,
      logLevel: 'info',
      secretKeyFile: null,
      serviceApis: {
        pushover: 'https://api.pushover.net/1/messages.json',
        pagerduty: 'https://events.pagerduty.com/v2/enqueue',
      },
      refuseRoot: false,
    });
  });

  it('treats empty and blank variables as unset', () => {
    const blank = {
      FARSIGHT_DATA_DIR: '',
      FARSIGHT_LISTEN: '   ',
      FARSIGHT_PUBLIC_URL: '',
      FARSIGHT_HTTPS_LISTEN: ' ',
      FARSIGHT_CANARIES: '',
      FARSIGHT_LOG_LEVEL: '\t',
    };
    expect(loadConfig(blank)).toEqual(loadConfig({}));
  });

  it('trims surrounding whitespace from values', () => {
    const config = loadConfig({ FARSIGHT_LISTEN: '  127.0.0.1:9000 \n', FARSIGHT_LOG_LEVEL: ' warn ' });
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(config.logLevel).toBe('warn');
  });
});

describe('parseListen', () => {
  it.each<[string, ListenAddress]>([
    ['8080', { host: '0.0.0.0', port: 8080 }],
    [':8080', { host: '0.0.0.0', port: 8080 }],
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['localhost:3000', { host: 'localhost', port: 3000 }],
    ['status.example.com:443', { host: 'status.example.com', port: 443 }],
    ['[::1]:8080', { host: '::1', port: 8080 }],
    ['[::]:80', { host: '::', port: 80 }],
    ['[2001:db8::1]:8443', { host: '2001:db8::1', port: 8443 }],
    ['1', { host: '0.0.0.0', port: 1 }],
    [':65535', { host: '0.0.0.0', port: 65535 }],
  ])('reads %j as %j', (text, expected) => {
    expect(parseListen('FARSIGHT_LISTEN', text)).toEqual(expected);
  });

  it.each([
    ':0',
    '0',
    ':70000',
    '65536',
    '123456',
    'host',
    '[::1]',
    '[::1]:',
    '[nonsense]:80',
    'a:b:c',
    '::1:8080',
    '127.0.0.1:',
    '127.0.0.1:http',
    'host name:80',
    '',
  ])('rejects %j with an error naming the variable', (text) => {
    expect(() => parseListen('FARSIGHT_LISTEN', text)).toThrow(ConfigError);
    expect(() => parseListen('FARSIGHT_LISTEN', text)).toThrow(/^FARSIGHT_LISTEN: /);
  });
});

describe('loadConfig listen addresses', () => {
  it.each([
    ['FARSIGHT_LISTEN', 'listen'],
    ['FARSIGHT_HTTPS_LISTEN', 'httpsListen'],
    ['FARSIGHT_ACME_HTTP_LISTEN', 'acmeHttpListen'],
  ] as const)('%s accepts :port and [ipv6]:port into %s', (name, key) => {
    expect(loadConfig({ [name]: ':443' })[key]).toEqual({ host: '0.0.0.0', port: 443 });
    expect(loadConfig({ [name]: '[::1]:80' })[key]).toEqual({ host: '::1', port: 80 });
  });

  it.each<[string, string]>([
    ['FARSIGHT_LISTEN', ':0'],
    ['FARSIGHT_LISTEN', ':70000'],
    ['FARSIGHT_LISTEN', 'host'],
    ['FARSIGHT_LISTEN', '[::1]'],
    ['FARSIGHT_LISTEN', 'a:b:c'],
    ['FARSIGHT_HTTPS_LISTEN', ':0'],
    ['FARSIGHT_HTTPS_LISTEN', 'host'],
    ['FARSIGHT_ACME_HTTP_LISTEN', ':70000'],
    ['FARSIGHT_ACME_HTTP_LISTEN', 'a:b:c'],
  ])('%s=%j fails with a message that starts with the variable name', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(`^${name}: `));
  });
});

describe('loadConfig FARSIGHT_PUBLIC_URL', () => {
  it.each<[string, string, string]>([
    ['https://status.example.com', 'https://status.example.com', 'https://status.example.com'],
    ['https://status.example.com/', 'https://status.example.com', 'https://status.example.com'],
    ['https://status.example.com///', 'https://status.example.com', 'https://status.example.com'],
    ['HTTPS://Status.Example.COM', 'https://status.example.com', 'https://status.example.com'],
    ['http://192.168.1.10:8080', 'http://192.168.1.10:8080', 'http://192.168.1.10:8080'],
    ['https://example.com:443/', 'https://example.com', 'https://example.com'],
    ['https://example.com/farsight/', 'https://example.com/farsight', 'https://example.com'],
    ['http://[::1]:8080', 'http://[::1]:8080', 'http://[::1]:8080'],
  ])('normalises %j to %j with origin %j', (value, publicUrl, publicOrigin) => {
    const config = loadConfig({ FARSIGHT_PUBLIC_URL: value });
    expect(config.publicUrl).toBe(publicUrl);
    expect(config.publicOrigin).toBe(publicOrigin);
  });

  it.each<[Record<string, string>, string]>([
    [{ FARSIGHT_LISTEN: '127.0.0.1:9123' }, 'http://localhost:9123'],
    [{ FARSIGHT_LISTEN: ':3000' }, 'http://localhost:3000'],
    [{ FARSIGHT_LISTEN: '8081' }, 'http://localhost:8081'],
    [{ FARSIGHT_LISTEN: '[::1]:9000' }, 'http://localhost:9000'],
    [{ FARSIGHT_LISTEN: '0.0.0.0:80' }, 'http://localhost'],
    [{}, 'http://localhost:8080'],
    [
      { FARSIGHT_LISTEN: '127.0.0.1:9123', FARSIGHT_PUBLIC_URL: 'https://status.example.com' },
      'https://status.example.com',
    ],
  ])('when unset, follows the listen port: %j gives %j', (env, publicUrl) => {
    const config = loadConfig(env);
    expect(config.publicUrl).toBe(publicUrl);
    expect(config.publicOrigin).toBe(publicUrl);
  });

  it.each([
    'ftp://x',
    'not a url',
    'status.example.com',
    'javascript:alert(1)',
    'https://user:pass@status.example.com',
    'https://user@status.example.com',
    'https://status.example.com/?a=1',
    'https://status.example.com/#top',
  ])('rejects %j', (value) => {
    expect(configError({ FARSIGHT_PUBLIC_URL: value }).message).toMatch(/^FARSIGHT_PUBLIC_URL: /);
  });

  it.each(['https://status.example.com?', 'https://status.example.com/#'])(
    'rejects %j with a bare query or fragment marker',
    (value) => {
      expect(configError({ FARSIGHT_PUBLIC_URL: value }).message).toMatch(/^FARSIGHT_PUBLIC_URL: /);
    },
  );
});

describe('loadConfig FARSIGHT_CANARIES', () => {
  it.each<[string, ListenAddress[]]>([
    ['off', []],
    ['OFF', []],
    ['Off', []],
    ['127.0.0.1:9', [{ host: '127.0.0.1', port: 9 }]],
    [
      '1.1.1.1:443, [2606:4700::1111]:443 ,example.com:80',
      [
        { host: '1.1.1.1', port: 443 },
        { host: '2606:4700::1111', port: 443 },
        { host: 'example.com', port: 80 },
      ],
    ],
    ['1.1.1.1:443,,', [{ host: '1.1.1.1', port: 443 }]],
  ])('reads %j as %j', (value, canaries) => {
    expect(loadConfig({ FARSIGHT_CANARIES: value }).canaries).toEqual(canaries);
  });

  it.each([',', ' , , ', '443', '1.1.1.1', '1.1.1.1:443,nohost', '1.1.1.1:443,1.1.1.1:0', 'off,1.1.1.1:443'])(
    'rejects %j',
    (value) => {
      expect(configError({ FARSIGHT_CANARIES: value }).message).toMatch(/^FARSIGHT_CANARIES: /);
    },
  );

  it.each<[string, boolean]>([
    ['off', false],
    ['127.0.0.1:9', false],
    ['1.1.1.1:443,8.8.8.8:443,9.9.9.9:443', false],
  ])('marks %j as an explicit list (no local canaries are added to it)', (value, defaults) => {
    expect(loadConfig({ FARSIGHT_CANARIES: value }).canaryDefaults).toBe(defaults);
  });

  it.each(['no', 'false', '0', 'disabled'])('refuses %j naming "off" among what it takes', (value) => {
    expect(configError({ FARSIGHT_CANARIES: value }).message).toMatch(
      /^FARSIGHT_CANARIES: .*expected "off" \(blind detection off\) or a comma-separated list of host:port$/,
    );
  });

  it.each<[string, string]>([
    ['FARSIGHT_LISTEN', ':70000'],
    ['FARSIGHT_LISTEN', '127.0.0.1:65536'],
    ['FARSIGHT_HTTPS_LISTEN', '[::1]:99999'],
    ['FARSIGHT_CANARIES', '1.1.1.1:70000'],
  ])('%s=%j: a port above 65535 is an error naming the variable and the range', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(
      new RegExp(`^${name}: port \\d+ is out of range \\(1-65535\\)`),
    );
  });

  it('rejects ":443", a canary without a host', () => {
    expect(configError({ FARSIGHT_CANARIES: ':443' }).message).toMatch(/^FARSIGHT_CANARIES: /);
  });
});

describe('loadConfig FARSIGHT_SERVER_IPS', () => {
  it.each<[string, string[]]>([
    ['203.0.113.7', ['203.0.113.7']],
    ['203.0.113.7, 2001:db8::7', ['203.0.113.7', '2001:db8::7']],
  ])('reads %j as %j', (value, ips) => {
    expect(loadConfig({ FARSIGHT_SERVER_IPS: value }).serverIps).toEqual(ips);
  });

  it.each(['status.example.com', '203.0.113.7/24', ',', '300.1.1.1'])('rejects %j', (value) => {
    expect(configError({ FARSIGHT_SERVER_IPS: value }).message).toMatch(/^FARSIGHT_SERVER_IPS: /);
  });
});

describe('loadConfig FARSIGHT_TRUST_PROXY', () => {
  it.each<[string, string[]]>([
    ['loopback', ['loopback']],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['192.168.1.5', ['192.168.1.5']],
    ['10.0.0.0/0', ['10.0.0.0/0']],
    ['10.0.0.0/32', ['10.0.0.0/32']],
    ['::1', ['::1']],
    ['fd00::/8', ['fd00::/8']],
    ['::1/128', ['::1/128']],
    ['loopback, 10.0.0.0/8 ,fd00::/8', ['loopback', '10.0.0.0/8', 'fd00::/8']],
    [',', []],
  ])('reads %j as %j', (value, trustProxy) => {
    expect(loadConfig({ FARSIGHT_TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    '::1/129',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/x',
    '10.0.0.0/-1',
    'LOOPBACK',
    'localhost',
    '300.0.0.1',
    'loopback,nope',
  ])('rejects %j', (value) => {
    expect(configError({ FARSIGHT_TRUST_PROXY: value }).message).toMatch(/^FARSIGHT_TRUST_PROXY: /);
  });

  it('rejects "10.0.0.0/8/9", which has two prefix lengths', () => {
    expect(configError({ FARSIGHT_TRUST_PROXY: '10.0.0.0/8/9' }).message).toMatch(/^FARSIGHT_TRUST_PROXY: /);
  });
});

describe('loadConfig FARSIGHT_REFUSE_ROOT', () => {
  it.each([
    ['on', true],
    ['1', true],
    ['TRUE', true],
    ['yes', true],
    ['off', false],
    ['0', false],
    ['False', false],
    ['no', false],
  ])('reads %j as %s', (value, on) => {
    expect(loadConfig({ FARSIGHT_REFUSE_ROOT: value }).refuseRoot).toBe(on);
  });

  it.each(['maybe', '2', 'enabled'])('refuses %j, naming the variable', (value) => {
    expect(configError({ FARSIGHT_REFUSE_ROOT: value }).message).toBe(
      `FARSIGHT_REFUSE_ROOT: expected on or off (1/0, true/false, yes/no), got "${value}"`,
    );
  });

  it.each([
    [true, 0, true],
    [true, 10001, false],
    [true, null, false],
    [false, 0, false],
  ])('with the switch %s, uid %s is refused: %s', (refuseRoot, euid, refused) => {
    const line = rootRefusal({ refuseRoot, dataDir: '/var/lib/farsight' }, euid);
    expect(line === null ? false : line.startsWith('running as root is refused (FARSIGHT_REFUSE_ROOT is on)')).toBe(
      refused,
    );
  });
});

describe('loadConfig FARSIGHT_LOG_LEVEL', () => {
  it.each<[string, AppConfig['logLevel']]>([
    ['error', 'error'],
    ['warn', 'warn'],
    ['info', 'info'],
    ['debug', 'debug'],
    ['DEBUG', 'debug'],
    ['Warn', 'warn'],
  ])('reads %j as %j', (value, level) => {
    expect(loadConfig({ FARSIGHT_LOG_LEVEL: value }).logLevel).toBe(level);
  });

  it.each(['verbose', 'trace', 'warning', '0'])('rejects %j', (value) => {
    expect(configError({ FARSIGHT_LOG_LEVEL: value }).message).toMatch(/^FARSIGHT_LOG_LEVEL: /);
  });
});

describe('loadConfig FARSIGHT_SMTP and FARSIGHT_SMTP_FALLBACK', () => {
  it.each([
    ['FARSIGHT_SMTP', 'smtp', 'smtp://user:pass@mail.example.com:587'],
    ['FARSIGHT_SMTP', 'smtp', 'smtps://mail.example.com'],
    ['FARSIGHT_SMTP_FALLBACK', 'smtpFallback', 'smtp://localhost:25'],
    ['FARSIGHT_SMTP_FALLBACK', 'smtpFallback', 'smtps://u%40x:p%2Fw@mail.example.com:465'],
  ] as const)('%s keeps %s URL %j as written', (name, key, value) => {
    expect(loadConfig({ [name]: value })[key]).toBe(value);
  });

  it.each([
    ['FARSIGHT_SMTP', 'mail.example.com'],
    ['FARSIGHT_SMTP', 'http://mail.example.com'],
    ['FARSIGHT_SMTP', 'not a url'],
    ['FARSIGHT_SMTP', 'smtp://'],
    ['FARSIGHT_SMTP_FALLBACK', 'https://mail.example.com'],
    ['FARSIGHT_SMTP_FALLBACK', 'smtp://'],
  ])('%s=%j fails with a message that starts with the variable name', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(`^${name}: `));
  });
});

describe('loadConfig FARSIGHT_MAIL_FROM', () => {
  it.each(['Farsight <farsight@localhost>', 'alerts@example.com', 'Homelab Alerts <alerts@example.com>', '<a@b>'])(
    'accepts %j and keeps it as written',
    (value) => {
      expect(loadConfig({ FARSIGHT_MAIL_FROM: value }).mailFrom).toBe(value);
    },
  );

  it.each(['nobody', 'Farsight', 'Farsight <nobody>', 'a@b@c', 'Farsight farsight@localhost', '@example.com', 'user@'])(
    'rejects %j',
    (value) => {
      expect(configError({ FARSIGHT_MAIL_FROM: value }).message).toMatch(/^FARSIGHT_MAIL_FROM: /);
    },
  );

  it('rejects a sender with a line break in it', () => {
    expect(configError({ FARSIGHT_MAIL_FROM: 'Farsight <a@example.com>\r\nBcc: <b@example.com>' }).message).toMatch(
      /^FARSIGHT_MAIL_FROM: /,
    );
  });
});

describe('loadConfig URLs for ACME and the challenge', () => {
  it('keeps an http(s) ACME directory', () => {
    expect(loadConfig({ FARSIGHT_ACME_DIRECTORY: 'https://localhost:14000/dir' }).acmeDirectory).toBe(
      'https://localhost:14000/dir',
    );
  });

  it.each(['ftp://acme.example.com/dir', 'not a url'])('rejects ACME directory %j', (value) => {
    expect(configError({ FARSIGHT_ACME_DIRECTORY: value }).message).toMatch(/^FARSIGHT_ACME_DIRECTORY: /);
  });

  it('enables the challenge with the Turnstile verify URL when both key and secret are set', () => {
    const config = loadConfig({ FARSIGHT_CHALLENGE_SITE_KEY: 'site', FARSIGHT_CHALLENGE_SECRET: 'shh' });
    expect(config.challenge).toEqual({ siteKey: 'site', secret: 'shh', verifyUrl: TURNSTILE_VERIFY_URL });
  });

  it('uses FARSIGHT_CHALLENGE_VERIFY_URL when given', () => {
    const config = loadConfig({
      FARSIGHT_CHALLENGE_SITE_KEY: 'site',
      FARSIGHT_CHALLENGE_SECRET: 'shh',
      FARSIGHT_CHALLENGE_VERIFY_URL: 'http://127.0.0.1:9999/verify',
    });
    expect(config.challenge?.verifyUrl).toBe('http://127.0.0.1:9999/verify');
  });

  it('ignores FARSIGHT_CHALLENGE_VERIFY_URL while the challenge is off', () => {
    expect(loadConfig({ FARSIGHT_CHALLENGE_VERIFY_URL: 'not a url' }).challenge).toBeNull();
  });

  it('rejects a verify URL that is not http(s)', () => {
    const env = {
      FARSIGHT_CHALLENGE_SITE_KEY: 'site',
      FARSIGHT_CHALLENGE_SECRET: 'shh',
      FARSIGHT_CHALLENGE_VERIFY_URL: 'ftp://x',
    };
    expect(configError(env).message).toMatch(/^FARSIGHT_CHALLENGE_VERIFY_URL: /);
  });

  it.each([
    [{ FARSIGHT_CHALLENGE_SITE_KEY: 'site' }],
    [{ FARSIGHT_CHALLENGE_SECRET: 'shh' }],
    [{ FARSIGHT_CHALLENGE_SITE_KEY: 'site', FARSIGHT_CHALLENGE_SECRET: '  ' }],
  ])('rejects a site key without a secret or the reverse: %j', (env) => {
    const message = configError(env).message;
    expect(message).toMatch(/^FARSIGHT_CHALLENGE_SITE_KEY/);
    expect(message).toContain('FARSIGHT_CHALLENGE_SECRET');
  });
});

describe('loadConfig FARSIGHT_DNS_SERVERS', () => {
  it.each<[string, string[]]>([
    ['1.1.1.1', ['1.1.1.1']],
    ['1.1.1.1:53, 9.9.9.9', ['1.1.1.1:53', '9.9.9.9']],
    ['2606:4700::1111', ['2606:4700::1111']],
    ['[2606:4700::1111]:53,[::1]', ['[2606:4700::1111]:53', '[::1]']],
  ])('reads %j as %j', (value, servers) => {
    expect(loadConfig({ FARSIGHT_DNS_SERVERS: value }).dnsServers).toEqual(servers);
  });

  it.each(['dns.google', '1.1.1.1,dns.google', ',', '1.1.1', '1.1.1.1:abc'])('rejects %j', (value) => {
    expect(configError({ FARSIGHT_DNS_SERVERS: value }).message).toMatch(/^FARSIGHT_DNS_SERVERS: /);
  });

  it.each(['1.1.1.1:99999', '1.1.1.1:0', '[::1]:70000'])('rejects %j, whose port is out of range', (value) => {
    expect(configError({ FARSIGHT_DNS_SERVERS: value }).message).toMatch(/^FARSIGHT_DNS_SERVERS: /);
  });
});

describe('loadConfig files and _FILE variables', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-config-'));
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function write(name: string, text: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  }

  it('reads a secret from NAME_FILE and trims the trailing newline', () => {
    const file = write('secret', 'from-file\n');
    const config = loadConfig({ FARSIGHT_CHALLENGE_SITE_KEY: 'site', FARSIGHT_CHALLENGE_SECRET_FILE: file });
    expect(config.challenge?.secret).toBe('from-file');
  });

  it('reads an SMTP URL with credentials from FARSIGHT_SMTP_FILE', () => {
    const file = write('smtp', 'smtps://user:pa55@mail.example.com:465\n');
    expect(loadConfig({ FARSIGHT_SMTP_FILE: file }).smtp).toBe('smtps://user:pa55@mail.example.com:465');
  });

  it('prefers NAME over NAME_FILE when both are set', () => {
    const file = write('level', 'debug');
    expect(loadConfig({ FARSIGHT_LOG_LEVEL: 'warn', FARSIGHT_LOG_LEVEL_FILE: file }).logLevel).toBe('warn');
  });

  it('validates a value read from a file like any other', () => {
    const file = write('bad-smtp', 'http://mail.example.com');
    expect(configError({ FARSIGHT_SMTP_FILE: file }).message).toMatch(/^FARSIGHT_SMTP: /);
  });

  it('fails naming NAME_FILE and the path when the file is missing', () => {
    const missing = path.join(dir, 'does-not-exist');
    const message = configError({
      FARSIGHT_CHALLENGE_SITE_KEY: 'site',
      FARSIGHT_CHALLENGE_SECRET_FILE: missing,
    }).message;
    expect(message).toMatch(/^FARSIGHT_CHALLENGE_SECRET_FILE: /);
    expect(message).toContain(missing);
  });

  it('resolves an existing FARSIGHT_ACME_CA_FILE to an absolute path', () => {
    const file = write('ca.pem', '-----BEGIN CERTIFICATE-----\n');
    const relative = path.relative(process.cwd(), file);
    expect(loadConfig({ FARSIGHT_ACME_CA_FILE: relative }).acmeCaFile).toBe(file);
  });

  it('rejects a FARSIGHT_ACME_CA_FILE that does not exist', () => {
    expect(configError({ FARSIGHT_ACME_CA_FILE: path.join(dir, 'nope.pem') }).message).toMatch(
      /^FARSIGHT_ACME_CA_FILE: /,
    );
  });

  it('resolves a readable FARSIGHT_SECRET_KEY_FILE to an absolute path without reading the key into the config', () => {
    const file = write('secret.key', 'k'.repeat(32));
    const relative = path.relative(process.cwd(), file);
    expect(loadConfig({ FARSIGHT_SECRET_KEY_FILE: ` ${relative}\n` }).secretKeyFile).toBe(file);
  });

  it('fails naming FARSIGHT_SECRET_KEY_FILE and the path when the key file is missing', () => {
    const missing = path.join(dir, 'no-such.key');
    const message = configError({ FARSIGHT_SECRET_KEY_FILE: missing }).message;
    expect(message).toMatch(/^FARSIGHT_SECRET_KEY_FILE: /);
    expect(message).toContain(missing);
  });

  it('refuses a key given directly in FARSIGHT_SECRET_KEY, pointing at FARSIGHT_SECRET_KEY_FILE', () => {
    const message = configError({ FARSIGHT_SECRET_KEY: 'abc' }).message;
    expect(message).toMatch(/^FARSIGHT_SECRET_KEY: /);
    expect(message).toContain('FARSIGHT_SECRET_KEY_FILE');
  });

  it('resolves FARSIGHT_DATA_DIR to an absolute path', () => {
    expect(loadConfig({ FARSIGHT_DATA_DIR: 'var/farsight' }).dataDir).toBe(path.resolve('var/farsight'));
  });
});
