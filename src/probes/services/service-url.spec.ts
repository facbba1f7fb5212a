import { MQTT_URL } from './url-rules';
import { parseServiceUrl, ServiceUrl, UrlRules, urlWithoutPassword } from './service-url';

const PG: UrlRules = { schemes: ['postgres', 'postgresql'], defaultPort: 5432, database: 'name' };
const REDIS: UrlRules = { schemes: ['redis', 'rediss'], defaultPort: 6379, database: 'number' };
const url = (over: Partial<ServiceUrl>): ServiceUrl => ({
  scheme: 'postgres',
  host: 'db.lan',
  port: 5432,
  username: '',
  password: null,
  database: '',
  ...over,
});

describe('parseServiceUrl', () => {
  it.each<[string, UrlRules, ServiceUrl]>([
    ['postgres://db.lan', PG, url({})],
    [
      'postgresql://app:s3cret@db.lan:6543/shop',
      PG,
      url({ scheme: 'postgresql', username: 'app', password: 's3cret', port: 6543, database: 'shop' }),
    ],
    ['postgres://app@db.lan/shop', PG, url({ username: 'app', database: 'shop' })],
    [
      'postgres://app:p%40ss%3Aw%3Fd@db.lan/my%20db',
      PG,
      url({ username: 'app', password: 'p@ss:w?d', database: 'my db' }),
    ],
    ['postgres://app:@db.lan', PG, url({ username: 'app', password: '' })],
    ['postgres://[::1]:5432/x', PG, url({ host: '::1', database: 'x' })],
    ['POSTGRES://10.0.0.5', PG, url({ host: '10.0.0.5' })],
    [
      'redis://:pw@cache.lan:6380/2',
      REDIS,
      url({ scheme: 'redis', host: 'cache.lan', port: 6380, password: 'pw', database: '2' }),
    ],
    [
      'redis://default:pw@cache.lan',
      REDIS,
      url({ scheme: 'redis', host: 'cache.lan', port: 6379, username: 'default', password: 'pw' }),
    ],
    ['mqtt://broker.lan', MQTT_URL, url({ scheme: 'mqtt', host: 'broker.lan', port: 1883 })],
    ['mqtts://broker.lan/', MQTT_URL, url({ scheme: 'mqtts', host: 'broker.lan', port: 8883 })],
    [
      'mqtts://u:p@broker.lan:9883',
      MQTT_URL,
      url({ scheme: 'mqtts', host: 'broker.lan', port: 9883, username: 'u', password: 'p' }),
    ],
  ])('reads %s', (text, rules, expected) => {
    expect(parseServiceUrl(text, rules)).toEqual(expected);
  });

  it.each<[string, UrlRules, string]>([
    ['postgres://db.lan/shop?sslmode=disable', PG, 'options in the URL'],
    ['postgres://db.lan/shop?options=-c%20default_transaction_read_only%3Doff', PG, 'options in the URL'],
    ['postgres://db.lan/shop?host=/tmp', PG, 'options in the URL'],
    ['postgres://db.lan/shop#x', PG, 'options in the URL'],
    ['postgres://h1,h2/shop', PG, 'one host only'],
    ['postgres://h1:5432,h2:5432/shop', PG, 'the port must be'],
    ['postgres://bücher.lan/shop', PG, 'xn--'],
    ['postgres://999.1.1.1/shop', PG, 'not a host name'],
    ['postgres://db.lan:0/shop', PG, 'the port must be'],
    ['postgres://db.lan:65536/shop', PG, 'the port must be'],
    ['postgres://db.lan:54x/shop', PG, 'the port must be'],
    ['postgres:///shop', PG, 'must name a host'],
    ['postgres://db.lan/a/b', PG, 'one name'],
    ['postgres://db.lan/%zz', PG, 'broken %-escape'],
    ['mysql://db.lan/shop', PG, 'must start with postgres:// or postgresql://'],
    ['db.lan:5432', PG, 'must look like postgres://user:password@host:5432/database'],
    ['postgres://db.lan /shop', PG, 'spaces or control'],
    ['redis://cache.lan/16', REDIS, 'from 0 to 15'],
    ['redis://cache.lan/db', REDIS, 'from 0 to 15'],
    ['mqtt://broker.lan/home/state', MQTT_URL, 'takes no path'],
    ['ws://broker.lan:9001', MQTT_URL, 'must start with mqtt:// or mqtts://'],
  ])('refuses %j', (text, rules, message) => {
    expect(parseServiceUrl(text, rules)).toEqual(expect.stringContaining(message));
  });

  it('never quotes the password in its message', () => {
    expect(parseServiceUrl('postgres://app:hunter2@db.lan:99999/x', PG)).not.toContain('hunter2');
  });
});

describe('urlWithoutPassword', () => {
  it.each([
    ['postgres://app:s3cret@db.lan/shop', 'postgres://app@db.lan/shop'],
    ['redis://:pw@cache.lan:6380', 'redis://cache.lan:6380'],
    ['postgres://app@db.lan/shop', 'postgres://app@db.lan/shop'],
    ['postgres://db.lan/shop', 'postgres://db.lan/shop'],
  ])('%s → %s', (text, expected) => {
    const parsed = parseServiceUrl(text, text.startsWith('redis') ? REDIS : PG);
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(urlWithoutPassword(parsed, text)).toBe(expected);
  });
});
