import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Max,
  Min,
  validateSync,
  ValidateNested,
} from './class-validator';
import { ApiError, FieldError } from '../http/api-error';
import { flattenValidationErrors, validateDto } from './validation';

class JsonRuleDto {
  @IsString()
  path!: string;

  @IsIn(['eq', 'ne', 'contains'], { message: 'must be one of eq, ne, contains' })
  op!: string;
}

class HttpDto {
  @IsUrl({ require_tld: false }, { message: 'must be an http or https URL' })
  url!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => JsonRuleDto)
  json?: JsonRuleDto[];
}

class MonitorDto {
  @IsString()
  @Length(1, 100)
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(86400)
  interval_s?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => HttpDto)
  http?: HttpDto;
}

/** A body that passes MonitorDto; tests change one part of it. */
function makeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'NAS',
    interval_s: 60,
    http: {
      url: 'https://nas.lan',
      json: [
        { path: '$.status', op: 'eq' },
        { path: '$.disks', op: 'ne' },
        { path: '$.name', op: 'contains' },
      ],
    },
    ...overrides,
  };
}

/** Runs validateDto and returns the ApiError it throws (fails the test when it does not throw one). */
function rejection(value: unknown, opts?: { forbidUnknown?: boolean }): ApiError {
  try {
    validateDto(MonitorDto, value, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error(`validateDto accepted ${JSON.stringify(value)}`);
}

describe('validateDto', () => {
  it('returns a DTO instance with nested instances for a valid body', () => {
    const dto = validateDto(MonitorDto, makeBody());
    expect(dto).toBeInstanceOf(MonitorDto);
    expect(dto.http).toBeInstanceOf(HttpDto);
    expect(dto.http?.json?.[2]).toBeInstanceOf(JsonRuleDto);
    expect(dto).toEqual(expect.objectContaining({ name: 'NAS', interval_s: 60 }));
  });

  it('accepts a body without the optional parts', () => {
    expect(validateDto(MonitorDto, { name: 'NAS' }).http).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['an array', [makeBody()]],
    ['null', null],
    ['a string', '{"name":"NAS"}'],
    ['a number', 42],
    ['undefined', undefined],
    ['true', true],
  ])('refuses %s as 422 on field body', (_label, body) => {
    const err = rejection(body);
    expect(err.toBody()).toEqual({
      error: {
        code: 'invalid',
        message: 'body: must be a JSON object',
        field: 'body',
        fields: [{ field: 'body', message: 'must be a JSON object' }],
      },
    });
    expect(err.status).toBe(422);
  });

  it.each<[string, Record<string, unknown>, FieldError[]]>([
    ['an unknown top-level field', makeBody({ colour: 'red' }), [{ field: 'colour', message: 'unknown field' }]],
    [
      'an unknown nested field',
      makeBody({ http: { url: 'https://nas.lan', method: 'GET' } }),
      [{ field: 'http.method', message: 'unknown field' }],
    ],
    [
      'an unknown field inside an array item',
      makeBody({
        http: {
          url: 'https://nas.lan',
          json: [
            { path: '$', op: 'eq' },
            { path: '$', op: 'eq', value: 1 },
          ],
        },
      }),
      [{ field: 'http.json[1].value', message: 'unknown field' }],
    ],
    // Messages leave out the property name: the field is reported beside them.
    [
      'a missing required field',
      { interval_s: 60 },
      [{ field: 'name', message: 'must be longer than or equal to 1 characters' }],
    ],
    [
      'a value out of range',
      makeBody({ interval_s: 5 }),
      [{ field: 'interval_s', message: expect.stringContaining('10') }],
    ],
    [
      'a string where a number belongs',
      makeBody({ interval_s: '60' }),
      [{ field: 'interval_s', message: expect.any(String) }],
    ],
    [
      'a bad nested value',
      makeBody({ http: { url: 'not a url' } }),
      [{ field: 'http.url', message: 'must be an http or https URL' }],
    ],
    [
      'a bad value in the third array item',
      makeBody({
        http: {
          url: 'https://nas.lan',
          json: [
            { path: '$', op: 'eq' },
            { path: '$', op: 'ne' },
            { path: '$', op: 'gt' },
          ],
        },
      }),
      [{ field: 'http.json[2].op', message: 'must be one of eq, ne, contains' }],
    ],
    [
      'a nested object that is not an object',
      makeBody({ http: 'https://nas.lan' }),
      [{ field: 'http', message: expect.any(String) }],
    ],
    [
      'an array item that is not an object',
      makeBody({ http: { url: 'https://nas.lan', json: [{ path: '$', op: 'eq' }, 'eq'] } }),
      [{ field: 'http.json[1]', message: expect.any(String) }],
    ],
  ])('answers %s with 422 invalid at its dotted path', (_label, body, fields) => {
    const err = rejection(body);
    expect(err.code).toBe('invalid');
    expect(err.status).toBe(422);
    expect(err.fields).toEqual(fields);
    expect(err.field).toBe(err.fields?.[0].field);
    expect(err.message).toBe(`${err.fields?.[0].field}: ${err.fields?.[0].message}`);
  });

  it('reports every problem, each once, in one answer', () => {
    const err = rejection({
      name: '',
      interval_s: 1,
      extra: true,
      http: { url: 'not a url', json: [{ path: 1, op: 'eq' }] },
    });
    expect(err.fields?.map((f) => f.field).sort()).toEqual([
      'extra',
      'http.json[0].path',
      'http.url',
      'interval_s',
      'name',
    ]);
  });

  it('drops unknown fields silently when forbidUnknown is false', () => {
    const dto = validateDto(MonitorDto, makeBody({ colour: 'red' }), { forbidUnknown: false });
    expect(dto).not.toHaveProperty('colour');
  });

  it('still reports real problems when forbidUnknown is false', () => {
    expect(rejection(makeBody({ colour: 'red', name: '' }), { forbidUnknown: false }).fields).toEqual([
      { field: 'name', message: expect.any(String) },
    ]);
  });
});

describe('flattenValidationErrors', () => {
  const errorsOf = (body: Record<string, unknown>) =>
    validateSync(Object.assign(new MonitorDto(), body), { forbidUnknownValues: true });

  it('returns nothing for no errors', () => {
    expect(flattenValidationErrors([])).toEqual([]);
  });

  it('keeps the first message of a field that breaks several rules', () => {
    const fields = flattenValidationErrors(errorsOf({ name: 5 }));
    expect(fields).toHaveLength(1);
    expect(fields[0].field).toBe('name');
  });

  it.each<[string, string, string]>([
    ['a top-level property', '', 'name'],
    ['a property under a prefix', 'http', 'http.name'],
    ['a property under an array item', 'http.json[3]', 'http.json[3].name'],
  ])('writes %s as a dotted path', (_label, prefix, field) => {
    const [error] = errorsOf({ name: 5 });
    expect(flattenValidationErrors([error], prefix).map((f) => f.field)).toEqual([field]);
  });

  it('writes numeric children as array indexes', () => {
    const fields = flattenValidationErrors([
      {
        property: 'json',
        children: [{ property: '4', children: [{ property: 'op', constraints: { isIn: 'bad op' }, children: [] }] }],
      },
    ]);
    expect(fields).toEqual([{ field: 'json[4].op', message: 'bad op' }]);
  });

  it('says "unknown field" for a whitelist error even when other constraints are listed first', () => {
    const fields = flattenValidationErrors([
      {
        property: 'extra',
        constraints: { isString: 'must be a string', whitelistValidation: 'property extra should not exist' },
      },
    ]);
    expect(fields).toEqual([{ field: 'extra', message: 'unknown field' }]);
  });
});
