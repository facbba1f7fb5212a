import { Schema, validate } from './json-schema';

const root: Schema = {
  components: {
    schemas: {
      Item: {
        type: 'object',
        properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1 } },
        required: ['id', 'name'],
        additionalProperties: false,
      },
    },
  },
};
const ok = (s: Schema, v: unknown, mode: 'request' | 'response' = 'response') => validate(s, v, root, mode);

describe('validate (JSON Schema words of the route description)', () => {
  it.each<[string, Schema, unknown]>([
    ['an integer', { type: 'integer', minimum: 1, maximum: 3 }, 2],
    ['a multiple of the step', { type: 'integer', multipleOf: 15 }, -330],
    ['null where null is allowed', { type: ['string', 'null'] }, null],
    ['an enum value', { enum: ['a', 'b', null] }, null],
    ['a const', { const: true }, true],
    ["a time in the service's format", { type: 'string', format: 'date-time' }, '2026-11-01T12:00:00.000Z'],
    ['a pattern', { type: 'string', pattern: '^fs_[0-9a-f]{4}$' }, 'fs_12ab'],
    ['a $ref', { $ref: '#/components/schemas/Item' }, { id: 1, name: 'x' }],
    ['exactly one of oneOf', { oneOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1 }],
    ['any of anyOf', { anyOf: [{ type: 'string' }, { type: 'null' }] }, 'x'],
    ['items of an array', { type: 'array', items: { type: 'integer' }, maxItems: 2, uniqueItems: true }, [1, 2]],
    ['an open object', { type: 'object', properties: {}, additionalProperties: true }, { anything: 1 }],
  ])('accepts %s', (_n, schema, value) => {
    expect(ok(schema, value)).toEqual([]);
  });

  it.each<[string, Schema, unknown, string]>([
    ['a number for an integer', { type: 'integer' }, 1.5, 'expected integer'],
    ['below the minimum', { type: 'integer', minimum: 1 }, 0, 'minimum'],
    ['not a multiple of the step', { type: 'integer', multipleOf: 15 }, 20, 'not a multiple of 15'],
    ['too long (counting characters, not bytes)', { type: 'string', maxLength: 2 }, 'äöü', 'longer than 2'],
    ['not in the enum', { enum: ['a'] }, 'b', 'is not one of'],
    [
      'a time without milliseconds',
      { type: 'string', format: 'date-time' },
      '2026-11-01T12:00:00Z',
      'is not a date-time',
    ],
    [
      'a field that is not described',
      { $ref: '#/components/schemas/Item' },
      { id: 1, name: 'x', extra: true },
      'extra is not described',
    ],
    ['a missing required field', { $ref: '#/components/schemas/Item' }, { id: 1 }, 'missing name'],
    ['two of oneOf', { oneOf: [{ type: 'integer' }, { type: 'number' }] }, 1, 'matches 2 of oneOf'],
    ['none of anyOf', { anyOf: [{ type: 'string' }, { type: 'null' }] }, 1, 'matches none of anyOf'],
    ['repeated items', { type: 'array', items: {}, uniqueItems: true }, [1, 1], 'items repeat'],
    ['a keyword it cannot check', { type: 'string', contentEncoding: 'base64' }, 'x', 'contentEncoding is not checked'],
  ])('rejects %s', (_n, schema, value, message) => {
    expect(ok(schema, value)).toEqual([expect.stringContaining(message)]);
  });

  it('does not ask a request for read-only fields, but an answer', () => {
    const item = { $ref: '#/components/schemas/Item' };
    expect(ok(item, { name: 'x' }, 'request')).toEqual([]);
    expect(ok(item, { name: 'x' }, 'response')).toEqual(['$: missing id']);
  });
});
