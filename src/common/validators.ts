/** Small class-validator decorators shared by DTOs. */
import { registerDecorator, ValidateIf, ValidationArguments, ValidationOptions } from './class-validator';
import { nameProblem } from './text-rules';

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
        message: (args: ValidationArguments) => (typeof args.value === 'string' ? nameProblem(args.value) : null) ?? 'must be a name',
        ...options,
      },
      validator: { validate: (v: unknown) => typeof v === 'string' && nameProblem(v) === null },
    });
}
