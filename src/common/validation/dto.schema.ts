/**
 * JSON Schema read from a class-validator DTO's own decorators, so the route description of a DTO
 * body is the validator itself: a bound changed on the DTO changes the document. A decorator this
 * file does not know throws (the document must not quietly describe less than is checked).
 * Nested DTOs (`@ValidateNested() @Type(() => X)`) are described inline. Pure apart from reading
 * the decorators' metadata.
 */
import { getMetadataStorage } from './class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { JsonSchema, nullable } from './common.schema';
import { TEXT_RULE_WORDS } from './text-rules';

type DtoClass = abstract new (...args: never[]) => object;

// class-transformer keeps @Type() in its own storage; its public entry does not export it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a deep path with no types of its own
const transformer = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: {
    findTypeMetadata(target: DtoClass, property: string): { typeFunction(): unknown } | undefined;
  };
};

export interface DtoSchemaOptions {
  /** Required properties of a class; default: every property without @IsOptional. */
  required?(cls: DtoClass, byDefault: string[]): readonly string[];
  /** Words, defaults, examples per class and property; a name that is not a property throws. */
  docs?: ReadonlyMap<DtoClass, Record<string, JsonSchema>>;
  /** Last word on a property's schema (e.g. accept null where null means "the default"). */
  adjust?(cls: DtoClass, property: string, schema: JsonSchema): JsonSchema;
}

/** The schema of `cls` as its decorators check it. */
export function dtoSchema(cls: DtoClass, opts: DtoSchemaOptions = {}): JsonSchema {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metas) {
    const list = byProperty.get(m.propertyName) ?? [];
    list.push(m);
    byProperty.set(m.propertyName, list);
  }
  const docs = opts.docs?.get(cls) ?? {};
  for (const name of Object.keys(docs)) {
    if (!byProperty.has(name))
      throw new Error(`${cls.name} has no property ${name} (described in the route description)`);
  }
  const properties: Record<string, JsonSchema> = {};
  const optional: string[] = [];
  for (const [name, list] of byProperty) {
    const { schema, isOptional } = propertySchema(cls, name, list, opts);
    if (isOptional) optional.push(name);
    const extra = docs[name] ?? {};
    const words = [extra.description, schema.description].filter((w) => typeof w === 'string' && w !== '');
    const withDocs = { ...schema, ...extra, ...(words.length ? { description: words.join('; ') } : {}) };
    properties[name] = opts.adjust ? opts.adjust(cls, name, withDocs) : withDocs;
  }
  const byDefault = [...byProperty.keys()].filter((n) => !optional.includes(n));
  const required = opts.required ? opts.required(cls, byDefault) : byDefault;
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}

function propertySchema(
  cls: DtoClass,
  name: string,
  metas: ValidationMetadata[],
  opts: DtoSchemaOptions,
): { schema: JsonSchema; isOptional: boolean } {
  const self: JsonSchema = {};
  const items: JsonSchema = {};
  let isOptional = false;
  let isNullable = false;
  // Decorators are stored last-first; apply them in the order they were written.
  for (const m of [...metas].reverse()) {
    const target = m.each ? items : self;
    const c = (m.constraints ?? []) as unknown[];
    if (m.type === 'conditionalValidation') {
      if (m.name === 'isOptional') isOptional = true;
      // Any other condition (@ValidateIf, common/validation/validators Nullable): asked whether it lets null
      // through without the other checks.
      else if ((c[0] as (o: object, v: unknown) => boolean)({ [name]: null }, null) === false) isNullable = true;
      continue;
    }
    if (m.type === 'nestedValidation') {
      const type = transformer.defaultMetadataStorage.findTypeMetadata(cls, name)?.typeFunction();
      if (typeof type !== 'function')
        throw new Error(`${cls.name}.${name}: @ValidateNested without @Type(() => Class)`);
      Object.assign(m.each ? items : self, dtoSchema(type as DtoClass, opts));
      continue;
    }
    if (m.type !== 'customValidation' || !m.name)
      throw new Error(`${cls.name}.${name}: validation ${m.type} is not described`);
    applyConstraint(target, m.name, c, `${cls.name}.${name}`);
  }
  if (Object.keys(items).length) self.items = items;
  if (self.type === undefined && self.items) self.type = 'array';
  return { schema: isNullable ? nullable(self) : self, isOptional };
}

/** The JSON Schema words for each class-validator check the DTOs use. */
function applyConstraint(s: JsonSchema, check: string, c: unknown[], where: string): void {
  switch (check) {
    case 'isString':
      s.type = 'string';
      return;
    case 'isInt':
      s.type = 'integer';
      return;
    case 'isNumber':
      s.type = 'number';
      return;
    case 'isBoolean':
      s.type = 'boolean';
      return;
    case 'isArray':
      s.type = 'array';
      return;
    case 'isObject':
      if (s.properties === undefined) s.type = 'object';
      return;
    case 'isIn':
      s.enum = [...(c[0] as unknown[])];
      return;
    case 'min':
      s.minimum = c[0];
      return;
    case 'max':
      s.maximum = c[0];
      return;
    case 'isLength':
      s.minLength = c[0];
      if (c[1] !== undefined) s.maxLength = c[1];
      return;
    case 'minLength':
      s.minLength = c[0];
      return;
    case 'maxLength':
      s.maxLength = c[0];
      return;
    case 'arrayMaxSize':
      s.maxItems = c[0];
      return;
    case 'arrayMinSize':
      s.minItems = c[0];
      return;
    case 'arrayUnique':
      s.uniqueItems = true;
      return;
    case 'matches':
      s.pattern = (c[0] instanceof RegExp ? c[0] : new RegExp(String(c[0]))).source;
      return;
    case 'isName':
      s.description = TEXT_RULE_WORDS.name;
      return;
    case 'isText':
      s.description = c[0] ? TEXT_RULE_WORDS.lines : TEXT_RULE_WORDS.line;
      return;
    case 'isJsonScalar':
      s.type = ['string', 'number', 'boolean', 'null'];
      return;
    default:
      throw new Error(`${where}: the check ${check} has no JSON Schema words in common/validation/dto.schema.ts`);
  }
}
