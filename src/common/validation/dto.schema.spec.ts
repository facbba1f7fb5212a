import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  IsNumber,
  IsEmail,
} from './class-validator';
import { dtoSchema } from './dto.schema';
import { IsJsonScalar, IsName, IsText, Nullable } from './validators';

class Inner {
  @IsString() @Length(1, 10) a!: string;
  @IsOptional() @IsBoolean() b?: boolean;
}

class Outer {
  @IsString() @Length(1, 100) @IsName() name!: string;
  @IsIn(['x', 'y']) kind!: string;
  @IsInt() @Min(10) @Max(20) n!: number;
  @IsNumber() f!: number;
  @Nullable() @IsString() @MaxLength(5) maybe!: string | null;
  @IsOptional() @IsString() @Matches(/^[a-z]+$/) slug?: string;
  @IsArray() @ArrayMaxSize(3) @ArrayUnique() @IsString({ each: true }) @Length(1, 4, { each: true }) tags!: string[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => Inner) items!: Inner[];
  @Nullable() @ValidateNested() @Type(() => Inner) one!: Inner | null;
  @IsOptional() @ValidateIf((o: Outer) => o.when !== null) @IsString() when?: string | null;
  @IsOptional() @IsJsonScalar() value?: unknown;
  @IsOptional() @IsString() @IsText() line?: string;
  @IsOptional() @IsString() @IsText({ lines: true }) text?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsText({}, { each: true }) words?: string[];
}

class Unknown {
  @IsEmail() mail!: string;
}

describe('dtoSchema (JSON Schema from class-validator decorators)', () => {
  const s = dtoSchema(Outer) as {
    properties: Record<string, unknown>;
    required: string[];
    additionalProperties: boolean;
  };

  it.each<[string, unknown]>([
    ['name', { type: 'string', minLength: 1, maxLength: 100, description: expect.stringContaining('a name') }],
    ['kind', { enum: ['x', 'y'] }],
    ['n', { type: 'integer', minimum: 10, maximum: 20 }],
    ['f', { type: 'number' }],
    ['maybe', { type: ['string', 'null'], maxLength: 5 }],
    ['slug', { type: 'string', pattern: '^[a-z]+$' }],
    ['tags', { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 4 } }],
    [
      'items',
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { a: { type: 'string', minLength: 1, maxLength: 10 }, b: { type: 'boolean' } },
          required: ['a'],
          additionalProperties: false,
        },
      },
    ],
    ['one', { type: ['object', 'null'], properties: expect.any(Object), required: ['a'], additionalProperties: false }],
    ['when', { type: ['string', 'null'] }],
    ['value', { type: ['string', 'number', 'boolean', 'null'] }],
    ['line', { type: 'string', description: expect.stringMatching(/^one line of text: no control/) }],
    ['text', { type: 'string', description: expect.stringMatching(/^text: line breaks and tabs allowed/) }],
    ['words', { type: 'array', items: { type: 'string', description: expect.stringMatching(/^one line of text/) } }],
  ])('describes %s', (name, want) => {
    expect(s.properties[name]).toEqual(want);
  });

  it('requires what is not @IsOptional and allows nothing else', () => {
    expect(s.required).toEqual(['name', 'kind', 'n', 'f', 'maybe', 'tags', 'items', 'one']);
    expect(s.additionalProperties).toBe(false);
  });

  it('takes words, a required list and a last adjustment from the caller', () => {
    const t = dtoSchema(Inner, {
      docs: new Map([[Inner, { a: { description: 'the a', default: 'z' } }]]),
      required: () => [],
      adjust: (_c, p, schema) => (p === 'b' ? { ...schema, default: false } : schema),
    });
    expect(t).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 1, maxLength: 10, description: 'the a', default: 'z' },
        b: { type: 'boolean', default: false },
      },
      additionalProperties: false,
    });
  });

  it('refuses words for a property the DTO does not have', () => {
    expect(() => dtoSchema(Inner, { docs: new Map([[Inner, { c: { description: 'gone' } }]]) })).toThrow(
      'Inner has no property c',
    );
  });

  it('refuses a check it has no words for, rather than describing less than is checked', () => {
    expect(() => dtoSchema(Unknown)).toThrow('the check isEmail has no JSON Schema words');
  });
});
