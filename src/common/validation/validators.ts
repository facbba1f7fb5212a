/** Small class-validator decorators shared by DTOs. */
import { registerDecorator, ValidateIf, ValidationArguments, ValidationOptions } from './class-validator';
import { NAME_MISSING, nameProblem, textProblem } from './text-rules';

/** The field may be null; when it is not, the other decorators apply. */
export function Nullable(): PropertyDecorator {
  return ValidateIf((_o, v) => v !== null);
}

/** A JSON scalar: string, number, boolean or null. */
export function IsJsonScalar(options?: ValidationOptions): PropertyDecorator {
  return (target: object, property: string | symbol) =>
    registerDecorator({
      name: 'isJsonScalar',
      target: target.constructor,
      propertyName: property as string,
      options: { message: 'must be a string, number, boolean or null', ...options },
      validator: {
        validate: (v: unknown) =>
          v === null || ['string', 'boolean'].includes(typeof v) || (typeof v === 'number' && Number.isFinite(v)),
      },
    });
}

/**
 * A name people give something (monitor name, public_name, API key name, channel name): not blank,
 * no control or bidirectional characters. The rule itself is nameProblem in text-rules.ts.
 */
export function IsName(options?: ValidationOptions): PropertyDecorator {
  return (target: object, property: string | symbol) =>
    registerDecorator({
      name: 'isName',
      target: target.constructor,
      propertyName: property as string,
      options: {
        message: (args: ValidationArguments) =>
          (typeof args.value === 'string' ? nameProblem(args.value) : null) ?? NAME_MISSING,
        ...options,
      },
      validator: { validate: (v: unknown) => typeof v === 'string' && nameProblem(v) === null },
    });
}

/**
 * Any other text people enter and others read (a group, a tag, a description): the one text rule
 * of text-rules.ts, so no control or bidirectional character; `lines` lets line breaks and tabs
 * in. With `each`, every item of an array is judged and the message names the first refused one.
 */
export function IsText(opts: { lines?: boolean } = {}, options?: ValidationOptions): PropertyDecorator {
  const problem = (v: unknown): string | null => (typeof v === 'string' ? textProblem(v, opts) : null);
  return (target: object, property: string | symbol) =>
    registerDecorator({
      name: 'isText',
      target: target.constructor,
      propertyName: property as string,
      // Read by the route description (common/validation/dto.schema.ts): which of the two texts this is.
      constraints: [opts.lines === true],
      options: {
        message: (args: ValidationArguments) => {
          const items: unknown[] = Array.isArray(args.value) ? args.value : [args.value];
          return items.map(problem).find((p) => p !== null) ?? 'must be text';
        },
        ...options,
      },
      validator: { validate: (v: unknown) => typeof v === 'string' && problem(v) === null },
    });
}
