/**
 * class-validator, file by file. The package's index loads every validator it has (about a hundred,
 * libphonenumber-js and its metadata among them): a fifth of a second of every start on a small
 * box, for the twenty the DTOs use. These are the same module instances the index would give (one
 * metadata storage; class-validator.spec.ts checks it), loaded from their own files. To use another
 * decorator, add it here from its file under class-validator/cjs/.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each decorator from its own file, as said above */
import type * as CV from 'class-validator';

export type { ValidationArguments, ValidationError, ValidationOptions } from 'class-validator';

export const ArrayMaxSize: typeof CV.ArrayMaxSize =
  require('class-validator/cjs/decorator/array/ArrayMaxSize').ArrayMaxSize;
export const ArrayMinSize: typeof CV.ArrayMinSize =
  require('class-validator/cjs/decorator/array/ArrayMinSize').ArrayMinSize;
export const ArrayUnique: typeof CV.ArrayUnique =
  require('class-validator/cjs/decorator/array/ArrayUnique').ArrayUnique;
export const IsArray: typeof CV.IsArray = require('class-validator/cjs/decorator/typechecker/IsArray').IsArray;
export const IsBoolean: typeof CV.IsBoolean = require('class-validator/cjs/decorator/typechecker/IsBoolean').IsBoolean;
export const IsEmail: typeof CV.IsEmail = require('class-validator/cjs/decorator/string/IsEmail').IsEmail;
export const IsIn: typeof CV.IsIn = require('class-validator/cjs/decorator/common/IsIn').IsIn;
export const IsInt: typeof CV.IsInt = require('class-validator/cjs/decorator/typechecker/IsInt').IsInt;
export const IsNumber: typeof CV.IsNumber = require('class-validator/cjs/decorator/typechecker/IsNumber').IsNumber;
export const IsObject: typeof CV.IsObject = require('class-validator/cjs/decorator/typechecker/IsObject').IsObject;
export const IsOptional: typeof CV.IsOptional = require('class-validator/cjs/decorator/common/IsOptional').IsOptional;
export const IsString: typeof CV.IsString = require('class-validator/cjs/decorator/typechecker/IsString').IsString;
export const IsUrl: typeof CV.IsUrl = require('class-validator/cjs/decorator/string/IsUrl').IsUrl;
export const Length: typeof CV.Length = require('class-validator/cjs/decorator/string/Length').Length;
export const Matches: typeof CV.Matches = require('class-validator/cjs/decorator/string/Matches').Matches;
export const Max: typeof CV.Max = require('class-validator/cjs/decorator/number/Max').Max;
export const MaxLength: typeof CV.MaxLength = require('class-validator/cjs/decorator/string/MaxLength').MaxLength;
export const Min: typeof CV.Min = require('class-validator/cjs/decorator/number/Min').Min;
export const MinLength: typeof CV.MinLength = require('class-validator/cjs/decorator/string/MinLength').MinLength;
export const ValidateIf: typeof CV.ValidateIf = require('class-validator/cjs/decorator/common/ValidateIf').ValidateIf;
export const ValidateNested: typeof CV.ValidateNested =
  require('class-validator/cjs/decorator/common/ValidateNested').ValidateNested;
export const registerDecorator: typeof CV.registerDecorator =
  require('class-validator/cjs/register-decorator').registerDecorator;
export const getMetadataStorage: typeof CV.getMetadataStorage =
  require('class-validator/cjs/metadata/MetadataStorage').getMetadataStorage;

const { Validator } = require('class-validator/cjs/validation/Validator') as { Validator: typeof CV.Validator };
const { getFromContainer } = require('class-validator/cjs/container') as {
  getFromContainer: typeof CV.getFromContainer;
};

/** class-validator's validateSync(object, options), on the package's own shared Validator. */
export function validateSync(object: object, options?: CV.ValidatorOptions): CV.ValidationError[] {
  return getFromContainer(Validator).validateSync(object, options);
}
