import { ApiError } from '../common/http/api-error';
import type { Channel } from '../channels/channel-body';
import {
  hasErrors,
  ImportAnswer,
  IMPORT_MAX_MONITORS,
  planChannels,
  readImportEnvelope,
  splitMonitorItem,
  TokenHolders,
} from './import-document';

const MASK = '********';
const GOOD = { service_export: 1, monitors: [], channels: [], status_page: {} };

function fieldsOf(body: unknown): string[] {
  try {
    readImportEnvelope(body);
  } catch (err) {
    if (err instanceof ApiError) return (err.fields ?? []).map((f) => f.field);
    throw err;
  }
  throw new Error('expected a 422');
}

describe('readImportEnvelope', () => {
  it.each<[string, unknown, string[]]>([
    ['not an object', [], ['body']],
    ['another format', { ...GOOD, service_export: 2 }, ['service_export']],
    ['the format as text', { ...GOOD, service_export: '1' }, ['service_export']],
    ['no format', { monitors: [], channels: [], status_page: {} }, ['service_export']],
    ['no sections', { service_export: 1 }, ['monitors', 'channels', 'status_page']],
    [
      'sections of the wrong type',
      { service_export: 1, monitors: {}, channels: 'x', status_page: [] },
      ['monitors', 'channels', 'status_page'],
    ],
    ['too many monitors', { ...GOOD, monitors: new Array(IMPORT_MAX_MONITORS + 1).fill({}) }, ['monitors']],
    ['too many channels', { ...GOOD, channels: new Array(501).fill({}) }, ['channels']],
    ['an unknown key', { ...GOOD, keys: [] }, ['keys']],
    ['dry_run as text', { ...GOOD, dry_run: 'false' }, ['dry_run']],
    ['exported_at that is not a time', { ...GOOD, exported_at: 5 }, ['exported_at']],
  ])('refuses %s, naming %j', (_what, body, fields) => {
    expect(fieldsOf(body)).toEqual(fields);
  });

  it.each<[unknown, boolean]>([
    [undefined, true],
    [true, true],
    [false, false],
  ])('dry_run %p means a dry run: %p', (dryRun, expected) => {
    expect(readImportEnvelope({ ...GOOD, exported_at: '2026-11-01T00:00:00.000Z', dry_run: dryRun }).dryRun).toBe(
      expected,
    );
  });

  it('takes exactly 5,000 monitors', () => {
    expect(readImportEnvelope({ ...GOOD, monitors: new Array(IMPORT_MAX_MONITORS).fill({}) }).monitors).toHaveLength(
      IMPORT_MAX_MONITORS,
    );
  });
});

describe('planChannels', () => {
  const stored = (id: number, name: string, over: Partial<Channel> = {}): Channel => ({
    id,
    name,
    kind: 'webhook',
    enabled: true,
    events: ['down'],
    created_at: 0,
    updated_at: 0,
    config: { url: 'http://hook.lan/a', secret: 'old-secret', headers: [] },
    ...over,
  });
  const item = (over: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
    name: 'Ops',
    kind: 'webhook',
    enabled: true,
    events: ['down'],
    config: { url: 'http://hook.lan/a', secret: MASK, headers: [], ...config },
    ...over,
  });

  it.each<[string, unknown, Channel[], string]>([
    ['a channel not stored', item({}, { secret: 'a-new-secret-of-32-characters-xx' }), [], 'created'],
    ['the same channel, secret masked', item(), [stored(1, 'Ops')], 'unchanged'],
    ['the same channel, URL masked too', item({}, { url: MASK }), [stored(1, 'Ops')], 'unchanged'],
    ['a channel now disabled', item({ enabled: false }), [stored(1, 'Ops')], 'updated'],
    [
      'a new secret for the same URL',
      item({}, { secret: 'a-rotated-secret-32-characters-x' }),
      [stored(1, 'Ops')],
      'updated',
    ],
  ])('%s is %s', (_what, it, channels, outcome) => {
    const r = planChannels([it], channels);
    expect(r.errors).toEqual([]);
    expect(r.plans.map((p) => [p.name, p.outcome])).toEqual([['Ops', outcome]]);
  });

  it('puts the stored secret in place of ********', () => {
    const r = planChannels([item()], [stored(1, 'Ops')]);
    expect(r.plans[0].input.config.secret).toBe('old-secret');
  });

  it.each<[string, unknown[], Channel[], string, string]>([
    ['******** for a channel not stored', [item()], [], 'config.secret', 'no stored value'],
    [
      '******** with a new URL',
      [item({}, { url: 'http://evil.lan/' })],
      [stored(1, 'Ops')],
      'config.secret',
      'URL changed',
    ],
    [
      'another kind under a stored name',
      [item({ kind: 'email', config: { to: ['a@b.c'] } })],
      [stored(1, 'Ops')],
      'kind',
      'keeps its kind',
    ],
    [
      'a name two stored channels share',
      [item({}, { secret: 'x'.repeat(20) })],
      [stored(1, 'Ops'), stored(2, 'Ops')],
      'name',
      '2 channels here are named "Ops"',
    ],
    [
      'a name twice in the document',
      [item({}, { secret: 'x'.repeat(20) }), item({}, { secret: 'y'.repeat(20) })],
      [],
      'name',
      'more than once',
    ],
    ['an unknown field', [item({ id: 4 }, { secret: 'x'.repeat(20) })], [], 'id', 'unknown field'],
    ['an item that is not an object', ['Ops'], [], '', 'must be a JSON object'],
  ])('reports %s', (_what, items, channels, field, message) => {
    const r = planChannels(items, channels);
    expect(r.errors.at(-1)).toEqual({
      name: typeof items.at(-1) === 'object' ? 'Ops' : null,
      index: items.length - 1,
      fields: expect.arrayContaining([{ field, message: expect.stringContaining(message) }]),
    });
  });
});

describe('splitMonitorItem', () => {
  const known = (name: string) => (['Ops', 'Chat'].includes(name) ? null : `there is no channel named "${name}"`);

  it('takes out the channel names and the token hash, and keeps the rest for the monitor parser', () => {
    const r = splitMonitorItem(
      { name: 'Backup job', kind: 'heartbeat', channels: ['Chat', 'Ops'], heartbeat_token_sha256: 'f'.repeat(64) },
      known,
    );
    expect(r).toEqual({
      ok: true,
      item: {
        body: { name: 'Backup job', kind: 'heartbeat', slug: 'backup-job' },
        slug: 'backup-job',
        channelNames: ['Chat', 'Ops'],
        token: 'f'.repeat(64),
      },
    });
  });

  it.each<[string, Record<string, unknown>, string | null, unknown]>([
    ['a given slug', { name: 'A', slug: 'given', kind: 'tcp' }, 'given', null],
    ['channels null', { name: 'A', kind: 'tcp', channels: null }, 'a', null],
    ['channels []', { name: 'A', kind: 'tcp', channels: [] }, 'a', []],
    ['a masked token', { name: 'A', kind: 'heartbeat', heartbeat_token_sha256: MASK }, 'a', null],
  ])('accepts %s', (_what, item, slug, channels) => {
    const r = splitMonitorItem(item, known);
    expect(r.ok && [r.item.slug, r.item.channelNames]).toEqual([slug, channels]);
  });

  it.each<[string, unknown, string]>([
    ['no name or slug', { kind: 'tcp' }, 'slug'],
    ['a channel id', { name: 'A', channels: [1] }, 'channels[0]'],
    ['an unknown channel name', { name: 'A', channels: ['Ops', 'Nobody'] }, 'channels[1]'],
    ['a repeated channel', { name: 'A', channels: ['Ops', 'Ops'] }, 'channels[1]'],
    ['channels as text', { name: 'A', channels: 'Ops' }, 'channels'],
    ['more than 100 channels', { name: 'A', channels: new Array(101).fill('Ops') }, 'channels'],
    [
      'a token on another kind',
      { name: 'A', kind: 'http', heartbeat_token_sha256: 'f'.repeat(64) },
      'heartbeat_token_sha256',
    ],
    [
      'a token that is not a hash',
      { name: 'A', kind: 'heartbeat', heartbeat_token_sha256: 'F'.repeat(64) },
      'heartbeat_token_sha256',
    ],
    ['not an object', 7, ''],
  ])('reports %s on %s', (_what, item, field) => {
    const r = splitMonitorItem(item, known);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fields.map((f) => f.field)).toContain(field);
  });
});

describe('TokenHolders', () => {
  const [A, B] = ['a'.repeat(64), 'b'.repeat(64)];
  // Each row: claims in order as [hash, slug]; what each claim answers (null, or a part of its message).
  it.each<[string, Map<string, string>, [string, string][], (string | null)[]]>([
    ['a hash nobody holds', new Map(), [[A, 'one']], [null]],
    ['the stored holder itself', new Map([[A, 'one']]), [[A, 'one']], [null]],
    [
      'a hash a stored monitor of another slug holds',
      new Map([[A, 'one']]),
      [[A, 'two']],
      ['"one" here already has this ping token'],
    ],
    [
      'one hash twice in the document',
      new Map(),
      [
        [A, 'one'],
        [B, 'two'],
        [A, 'three'],
      ],
      [null, null, 'item 0 ("one")'],
    ],
    [
      'a refused claim holds nothing',
      new Map([[A, 'one']]),
      [
        [A, 'two'],
        [A, 'three'],
      ],
      ['"one" here', '"one" here'],
    ],
  ])('%s', (_what, stored, claims, expected) => {
    const holders = new TokenHolders(stored);
    const answers = claims.map(([hash, slug], index) => holders.claim(hash, index, slug));
    answers.forEach((answer, i) =>
      expected[i] === null ? expect(answer).toBeNull() : expect(answer).toContain(expected[i]),
    );
  });
});

describe('hasErrors', () => {
  const empty = (): ImportAnswer => ({
    dry_run: true,
    applied: false,
    created: [],
    updated: [],
    unchanged: [],
    errors: [],
    channels: { created: [], updated: [], unchanged: [], errors: [] },
    status_page: { changed: false, errors: [] },
    maintenance: { created: [], updated: [], unchanged: [], errors: [] },
  });
  it.each<[string, (a: ImportAnswer) => void, boolean]>([
    ['none', () => undefined, false],
    ['a monitor', (a) => a.errors.push({ slug: 'x', index: 0, fields: [] }), true],
    ['a channel', (a) => a.channels.errors.push({ name: 'x', index: 0, fields: [] }), true],
    ['the status page', (a) => a.status_page.errors.push({ field: 'title', message: 'x' }), true],
  ])('%s', (_what, add, expected) => {
    const a = empty();
    add(a);
    expect(hasErrors(a)).toBe(expected);
  });
});
