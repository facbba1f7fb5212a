/**
 * What the dashboard says about probe locations (public/dashboard/locations/location-words.js,
 * public/dashboard/monitor/locations-field.js, public/dashboard/monitor/location-rows.js): the
 * agent's install lines, the plain-http warning, the quorum in words and the per-location rows.
 */
type Loc = { name: string; status: string; latency_ms: number | null; at: string | null; error: unknown };
type Mon = { kind: string; locations?: string[]; quorum?: number | null; state?: { locations?: Loc[] } };
type Words = {
  installText(o: { server: string; token: string; version: string; envFile: string }): string;
  plainHttpWarning(server: string): string | null;
};
type Field = { quorumWords(n: number, q: number | string | null): string };
type Rows = {
  checkedElsewhere(m: Mon): boolean;
  locationRows(
    m: Mon,
    now: number,
    stats?: Map<string, { uptime_24h: number | null; uptime_30d: number | null }>,
  ): { name: string; word: string; latency: string; up24: string; up30: string; at: string; error: string }[];
};
/* eslint-disable @typescript-eslint/no-require-imports */
const { installText, plainHttpWarning } = require('../../public/dashboard/locations/location-words.js') as Words;
const { quorumWords } = require('../../public/dashboard/monitor/locations-field.js') as Field;
const { checkedElsewhere, locationRows } = require('../../public/dashboard/monitor/location-rows.js') as Rows;
/* eslint-enable @typescript-eslint/no-require-imports */

describe('installText', () => {
  const text = installText({
    server: 'https://status.example.org',
    token: 'fsa_' + 'ab'.repeat(24),
    version: '0.1.0',
    envFile: '/etc/farsight/agent.env',
  });

  it('installs the .deb of this version, switches its service off, writes the env file with the server and the token, and starts the unit', () => {
    const lines = text.split('\n').filter((l) => !l.startsWith('#'));
    expect(lines).toEqual([
      'sudo apt install ./farsight_0.1.0_amd64.deb    # or farsight_0.1.0_arm64.deb on a Pi',
      'sudo systemctl disable --now farsight    # this box only checks: the service itself is not wanted here',
      "sudo install -m 0600 /dev/stdin /etc/farsight/agent.env <<'EOF'",
      'FARSIGHT_AGENT_SERVER=https://status.example.org',
      'FARSIGHT_AGENT_TOKEN=fsa_' + 'ab'.repeat(24),
      'EOF',
      'sudo systemctl enable --now farsight-agent',
    ]);
  });
});

describe('plainHttpWarning', () => {
  it.each([
    ['https://status.example.org', false],
    ['http://localhost:8080', false],
    ['http://127.0.0.1:8080', false],
    ['http://[::1]:8080', false],
    ['http://192.168.1.10:8080', true],
    ['http://farsight.lan', true],
    ['not a url', false],
  ])('%s warns: %p', (server, warns) => {
    const w = plainHttpWarning(server);
    expect(w !== null).toBe(warns);
    if (w) expect(w).toContain(server);
  });
});

describe('quorumWords', () => {
  it.each([
    [1, null, 'Checked from one place: its checks alone decide.'],
    [
      3,
      null,
      'Down when a majority of the online ones confirm it (2 of 3 while all are online; an offline location is left out of the count).',
    ],
    [
      2,
      '',
      'Down when a majority of the online ones confirm it (2 of 2 while all are online; an offline location is left out of the count).',
    ],
    [3, 2, 'Down when 2 of the 3 locations (those online) confirm it.'],
    [3, '1', 'Down when 1 of the 3 locations (those online) confirm it.'],
    [2, 3, 'Only 2 locations are chosen: 3 can never agree.'],
    [3, '0', 'A whole number from 1, or empty for a majority.'],
    [3, '1.5', 'A whole number from 1, or empty for a majority.'],
  ])('%d locations, quorum %p: %s', (n, q, words) => {
    expect(quorumWords(n, q)).toBe(words);
  });
});

describe('checkedElsewhere', () => {
  it.each([
    [{ kind: 'http' }, false],
    [{ kind: 'http', locations: ['local'] }, false],
    [{ kind: 'http', locations: ['vps'] }, true],
    [{ kind: 'http', locations: ['local', 'vps'] }, true],
    [{ kind: 'heartbeat', locations: ['local', 'vps'] }, false],
  ])('%j: %p', (m, shown) => {
    expect(checkedElsewhere(m)).toBe(shown);
  });
});

describe('locationRows', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('gives one row per listed location, in its order, with a row for one not heard from yet', () => {
    const m: Mon = {
      kind: 'http',
      locations: ['local', 'vps', 'pi', 'nas'],
      quorum: null,
      state: {
        locations: [
          {
            name: 'vps',
            status: 'down',
            latency_ms: null,
            at: '2026-11-28T11:55:00Z',
            error: { code: 'timeout', message: 'no answer in 10 s' },
          },
          { name: 'local', status: 'up', latency_ms: 12, at: '2026-11-28T11:59:50Z', error: null },
          { name: 'nas', status: 'offline', latency_ms: 30, at: '2026-11-28T11:00:00Z', error: null },
        ],
      },
    };
    const stats = new Map([
      ['local', { uptime_24h: 100, uptime_30d: 99.95 }],
      ['vps', { uptime_24h: 87.345, uptime_30d: null }],
    ]);
    const dash = { up24: '—', up30: '—' };
    expect(locationRows(m, now, stats)).toEqual([
      {
        name: 'local (this service)',
        status: 'up',
        word: 'Up',
        latency: '12 ms',
        up24: '100%',
        up30: '99.95%',
        at: 'just now',
        error: '',
      },
      {
        name: 'vps',
        status: 'down',
        word: 'Down',
        latency: '—',
        up24: '87.3%',
        // No up or down time in 30 days (all unknown, or in maintenance): said, not a 0 % or a dash.
        up30: 'no data',
        at: '5 min ago',
        error: 'no answer in 10 s',
      },
      { name: 'pi', status: 'unknown', word: 'Unknown', latency: '—', ...dash, at: 'not yet', error: '' },
      {
        name: 'nas',
        status: 'unknown',
        word: 'Offline, not counted',
        latency: '30 ms',
        ...dash,
        at: '1 h ago',
        error: '',
      },
    ]);
  });

  it('shows dashes for uptime until the stats have come', () => {
    const rows = locationRows({ kind: 'http', locations: ['local', 'vps'] }, now);
    expect(rows.map((r) => [r.up24, r.up30])).toEqual([
      ['—', '—'],
      ['—', '—'],
    ]);
  });
});
