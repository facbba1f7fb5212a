import {
  KeepRule,
  keepSecrets,
  mapSecrets,
  maskSecrets,
  NOTHING_STORED,
  SecretSchema,
  secretValues,
} from './secret-fields';
import { MASK } from './secrets';

/** A channel-like shape, unlike http settings, so the module is shown to know nothing of monitors. */
interface Hook {
  url: string;
  secret: string | null;
  headers: { name: string; value: string; secret?: boolean }[];
  routes?: { zone: string; targets: { token: string }[] }[];
}

const HOOK_SECRETS: SecretSchema = [
  { path: 'secret' },
  { path: 'headers[*].value', when: (h) => h.secret === true, key: (h) => String(h.name).toLowerCase() },
  { path: 'routes[*].targets[*].token' },
];

const SAME_HOST: KeepRule<Hook> = {
  sameDestination: (next, prev) => new URL(next.url).host === new URL(prev.url).host,
  changedMessage: 'the host changed: send the secret again',
};

function hook(overrides: Partial<Hook> = {}): Hook {
  return { url: 'https://hooks.example/a', secret: 'stored-secret', headers: [], ...overrides };
}

describe('maskSecrets', () => {
  it.each<[string, Partial<Hook>, Partial<Hook>]>([
    ['masks a top-level secret', { secret: 'abc' }, { secret: MASK }],
    ['masks an empty secret too (it is set)', { secret: '' }, { secret: MASK }],
    ['leaves a null secret null', { secret: null }, { secret: null }],
    [
      'masks only the elements the schema says hold a secret',
      {
        headers: [
          { name: 'A', value: 'a', secret: true },
          { name: 'B', value: 'b', secret: false },
          { name: 'C', value: 'c' },
        ],
      },
      {
        secret: MASK,
        headers: [
          { name: 'A', value: MASK, secret: true },
          { name: 'B', value: 'b', secret: false },
          { name: 'C', value: 'c' },
        ],
      },
    ],
    [
      'masks through nested arrays',
      {
        routes: [
          { zone: 'x', targets: [{ token: 't1' }, { token: 't2' }] },
          { zone: 'y', targets: [] },
        ],
      },
      {
        secret: MASK,
        routes: [
          { zone: 'x', targets: [{ token: MASK }, { token: MASK }] },
          { zone: 'y', targets: [] },
        ],
      },
    ],
  ])('%s', (_what, given, masked) => {
    expect(maskSecrets(hook(given), HOOK_SECRETS)).toEqual(hook(masked));
  });

  it.each<[string, unknown]>([
    ['a field that is absent', { url: 'u' }],
    [
      'a path through a value that is not an object',
      { nested: 'text', headers: 'not a list', routes: [{ targets: 5 }] },
    ],
    ['an array where an object is expected', [{ secret: 's' }]],
    ['null', null],
  ])('leaves %s alone', (_what, value) => {
    const schema: SecretSchema = [
      { path: 'nested.secret' },
      { path: 'headers[*].value' },
      { path: 'routes[*].targets[*].token' },
    ];
    expect(maskSecrets(value, schema)).toEqual(value);
  });

  it('never follows an inherited property', () => {
    const masked = maskSecrets({ a: 1 }, [{ path: 'constructor' }, { path: 'toString' }]);
    expect(masked).toEqual({ a: 1 });
    expect(Object.hasOwn(masked, 'constructor')).toBe(false);
  });

  it('masks the elements of an array at the root', () => {
    const schema: SecretSchema = [{ path: '[*].password' }];
    expect(maskSecrets([{ user: 'a', password: 'p' }, { user: 'b' }], schema)).toEqual([
      { user: 'a', password: MASK },
      { user: 'b' },
    ]);
  });

  it('returns a deep copy and leaves its input as it was', () => {
    const input = hook({
      headers: [{ name: 'A', value: 'a', secret: true }],
      routes: [{ zone: 'z', targets: [{ token: 't' }] }],
    });
    const before = structuredClone(input);
    const masked = maskSecrets(input, HOOK_SECRETS);
    masked.headers[0].name = 'changed';
    masked.routes![0].zone = 'changed';
    expect(input).toEqual(before);
  });

  it('is a plain deep copy for a schema without secrets', () => {
    const input = hook({ headers: [{ name: 'A', value: 'a', secret: true }] });
    const copy = maskSecrets(input, []);
    expect(copy).toEqual(input);
    expect(copy.headers).not.toBe(input.headers);
  });
});

describe('keepSecrets', () => {
  const header = (name: string, value: string, secret = true) => ({ name, value, secret });

  describe('the keep-rule for one secret', () => {
    it.each<[string, Hook | null, Partial<Hook>, string | null, string | null]>([
      // what, stored, sent, kept value (null: refused), the refusal message
      ['keeps the stored value at the same destination', hook(), {}, 'stored-secret', null],
      ['keeps it when only the path changed', hook(), { url: 'https://hooks.example/b' }, 'stored-secret', null],
      [
        'refuses when the destination changed',
        hook(),
        { url: 'https://evil.example/a' },
        null,
        SAME_HOST.changedMessage,
      ],
      ['refuses when nothing was stored before', null, {}, null, NOTHING_STORED],
      ['refuses when the stored value is null', hook({ secret: null }), {}, null, NOTHING_STORED],
      ['refuses when the stored value is itself ********', hook({ secret: MASK }), {}, null, NOTHING_STORED],
      [
        'names the destination when it changed and nothing was stored',
        hook({ secret: null }),
        { url: 'https://evil.example/' },
        null,
        SAME_HOST.changedMessage,
      ],
    ])('%s', (_what, stored, sent, kept, message) => {
      const next = hook({ ...sent, secret: MASK });
      const errors = keepSecrets(next, stored, HOOK_SECRETS, SAME_HOST);
      expect(next.secret).toBe(kept ?? MASK);
      expect(errors).toEqual(message === null ? [] : [{ field: 'secret', message }]);
    });
  });

  it.each<[string, string | null]>([
    ['a new value', 'new-secret'],
    ['an empty value', ''],
    ['null', null],
  ])('takes %s as is, wherever it goes', (_what, value) => {
    const next = hook({ url: 'https://evil.example/', secret: value });
    expect(keepSecrets(next, hook(), HOOK_SECRETS, SAME_HOST)).toEqual([]);
    expect(next.secret).toBe(value);
  });

  it.each<[string, Hook['headers'], Hook['headers'], string[]]>([
    [
      'follows its key when elements move',
      [header('A', 'a'), header('B', 'b')],
      [header('B', MASK), header('A', MASK)],
      ['b', 'a'],
    ],
    ['matches keys as the key function says (any case here)', [header('X-Key', 'k')], [header('x-key', MASK)], ['k']],
    [
      'pairs repeated keys in order',
      [header('C', 'c1'), header('C', 'c2')],
      [header('C', MASK), header('C', MASK)],
      ['c1', 'c2'],
    ],
    [
      'skips stored elements that hold no secret',
      [header('C', 'plain', false), header('C', 'c1')],
      [header('C', MASK)],
      ['c1'],
    ],
    ['leaves ******** in an element that holds no secret', [header('A', 'a')], [header('A', MASK, false)], [MASK]],
  ])('pairs array elements: %s', (_what, stored, sent, values) => {
    const next = hook({ headers: sent });
    expect(keepSecrets(next, hook({ headers: stored }), HOOK_SECRETS, SAME_HOST)).toEqual([]);
    expect(next.headers.map((h) => h.value)).toEqual(values);
  });

  it('pairs elements by position when the schema gives no key', () => {
    const stored = hook({ routes: [{ zone: 'a', targets: [{ token: 't0' }, { token: 't1' }] }] });
    const next = hook({ routes: [{ zone: 'renamed', targets: [{ token: MASK }, { token: MASK }, { token: MASK }] }] });
    expect(keepSecrets(next, stored, HOOK_SECRETS, SAME_HOST)).toEqual([
      { field: 'routes[0].targets[2].token', message: NOTHING_STORED },
    ]);
    expect(next.routes![0].targets.map((t) => t.token)).toEqual(['t0', 't1', MASK]);
  });

  it('refuses a secret element whose key was not stored', () => {
    const next = hook({ headers: [header('A', MASK), header('New', MASK)] });
    expect(keepSecrets(next, hook({ headers: [header('A', 'a')] }), HOOK_SECRETS, SAME_HOST)).toEqual([
      { field: 'headers[1].value', message: NOTHING_STORED },
    ]);
  });

  it('reports every refused secret at its own path, in schema order then document order', () => {
    const next = hook({
      url: 'https://evil.example/',
      secret: MASK,
      headers: [header('A', MASK), header('B', 'real'), header('C', MASK)],
      routes: [{ zone: 'z', targets: [{ token: MASK }] }],
    });
    const fields = keepSecrets(next, hook(), HOOK_SECRETS, SAME_HOST).map((e) => e.field);
    expect(fields).toEqual(['secret', 'headers[0].value', 'headers[2].value', 'routes[0].targets[0].token']);
  });

  it.each<[string, SecretSchema, unknown, string]>([
    ['channels[2]', HOOK_SECRETS, hook({ secret: MASK }), 'channels[2].secret'],
    ['', HOOK_SECRETS, hook({ secret: MASK }), 'secret'],
    ['items', [{ path: '[*].password' }], [{ password: MASK }], 'items[0].password'],
  ])('puts the prefix %j in front of the dotted path', (prefix, schema, next, field) => {
    const rule: KeepRule<unknown> = { sameDestination: () => true, changedMessage: 'changed' };
    expect(keepSecrets(next, null, schema, rule, prefix)).toEqual([{ field, message: NOTHING_STORED }]);
  });

  it('asks the caller about the destination only when something was stored', () => {
    const sameDestination = jest.fn(() => true);
    keepSecrets(hook({ secret: MASK }), null, HOOK_SECRETS, { sameDestination, changedMessage: '' });
    expect(sameDestination).not.toHaveBeenCalled();
    const next = hook({ secret: MASK });
    const prev = hook();
    keepSecrets(next, prev, HOOK_SECRETS, { sameDestination, changedMessage: '' });
    expect(sameDestination).toHaveBeenCalledWith(next, prev);
  });

  it('does not change the stored object', () => {
    const prev = hook({ headers: [header('A', 'a')] });
    const before = structuredClone(prev);
    keepSecrets(hook({ secret: MASK, headers: [header('A', MASK)] }), prev, HOOK_SECRETS, SAME_HOST);
    expect(prev).toEqual(before);
  });
});

describe('secretValues', () => {
  it.each<[string, Partial<Hook>, string[]]>([
    ['the top-level secret', {}, ['stored-secret']],
    ['nothing for a null secret', { secret: null }, []],
    ['nothing for an empty secret', { secret: '' }, []],
    ['nothing for ********', { secret: MASK }, []],
    [
      'secret header values only',
      {
        secret: null,
        headers: [
          { name: 'A', value: 'ha', secret: true },
          { name: 'B', value: 'visible', secret: false },
        ],
      },
      ['ha'],
    ],
    [
      'each value once, in schema order',
      {
        secret: 'same',
        headers: [{ name: 'A', value: 'same', secret: true }],
        routes: [{ zone: 'z', targets: [{ token: 'tok' }] }],
      },
      ['same', 'tok'],
    ],
  ])('lists %s', (_what, given, values) => {
    expect(secretValues(hook(given), HOOK_SECRETS)).toEqual(values);
  });

  it('skips values that are not text', () => {
    expect(secretValues({ secret: 12345 }, [{ path: 'secret' }])).toEqual([]);
  });

  it('finds every value that maskSecrets hides, so scrubbing a log and masking an answer agree', () => {
    const value = hook({
      headers: [{ name: 'A', value: 'hv-1', secret: true }],
      routes: [{ zone: 'z', targets: [{ token: 'tk-2' }] }],
    });
    const masked = JSON.stringify(maskSecrets(value, HOOK_SECRETS));
    expect(secretValues(value, HOOK_SECRETS)).toEqual(['stored-secret', 'hv-1', 'tk-2']);
    for (const secret of secretValues(value, HOOK_SECRETS)) expect(masked).not.toContain(secret);
  });
});

describe('mapSecrets', () => {
  const seal = (v: string) => `sealed(${v})`;

  it.each<[string, Partial<Hook>, Partial<Hook>]>([
    ['the top-level secret', { secret: 's' }, { secret: 'sealed(s)' }],
    ['a null secret stays null', { secret: null }, { secret: null }],
    [
      'secret header values only',
      {
        secret: null,
        headers: [
          { name: 'X-Key', value: 'k', secret: true },
          { name: 'Accept', value: '*/*' },
        ],
      },
      {
        secret: null,
        headers: [
          { name: 'X-Key', value: 'sealed(k)', secret: true },
          { name: 'Accept', value: '*/*' },
        ],
      },
    ],
    [
      'nested arrays',
      { secret: null, routes: [{ zone: 'a', targets: [{ token: 't1' }, { token: 't2' }] }] },
      { secret: null, routes: [{ zone: 'a', targets: [{ token: 'sealed(t1)' }, { token: 'sealed(t2)' }] }] },
    ],
  ])('passes %s through the function, on a copy', (_what, given, expected) => {
    const before = hook(given);
    const snapshot = structuredClone(before);
    expect(mapSecrets(before, HOOK_SECRETS, seal)).toEqual(hook(expected));
    expect(before).toEqual(snapshot);
  });

  it('returns the same object, uncopied, when nothing is secret', () => {
    const plain = hook({ secret: null, headers: [{ name: 'Accept', value: '*/*' }] });
    expect(mapSecrets(plain, HOOK_SECRETS, seal)).toBe(plain);
    expect(mapSecrets(plain, [], seal)).toBe(plain);
  });
});
