/** Small class-validator decorators shared by DTOs. */
import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';

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
