/**
 * The credentials a browser returns (PublicKeyCredential, as JSON with base64url byte fields):
 * checked for shape and size here; what they say is checked in webauthn.ts. The extra members
 * of PublicKeyCredential.toJSON() (authenticatorAttachment, clientExtensionResults, and on
 * registration authenticatorData, publicKey, publicKeyAlgorithm) are accepted and not used.
 * Each class implements the library's JSON type it stands for (ceremonies.service.ts hands it
 * over with a cast), less the members it accepts more loosely (null where the type says absent),
 * so a field renamed or retyped in @simplewebauthn/server fails to compile here.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from '../../../common/validation/class-validator';
import { Nullable } from '../../../common/validation/validators';

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const B64URL_MESSAGE = { message: 'must be base64url' };

/** A credential id is at most 1023 bytes (WebAuthn), 1364 characters of base64url. */
const ID_MAX = 1364;

export class AssertionResponseDto implements Omit<AuthenticationResponseJSON['response'], 'userHandle'> {
  @IsString() @MaxLength(8192) @Matches(B64URL, B64URL_MESSAGE) clientDataJSON!: string;
  @IsString() @MaxLength(8192) @Matches(B64URL, B64URL_MESSAGE) authenticatorData!: string;
  @IsString() @MaxLength(2048) @Matches(B64URL, B64URL_MESSAGE) signature!: string;
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9_-]*={0,2}$/, B64URL_MESSAGE)
  userHandle?: string | null;
}

export class AttestationResponseDto implements Omit<RegistrationResponseJSON['response'], 'publicKey'> {
  @IsString() @MaxLength(8192) @Matches(B64URL, B64URL_MESSAGE) clientDataJSON!: string;
  /** Attestation statements with certificate chains run to a few KB; 64 KB is far above any real one. */
  @IsString() @MaxLength(65536) @Matches(B64URL, B64URL_MESSAGE) attestationObject!: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Matches(/^[a-z][a-z-]{0,29}$/, {
    each: true,
    message: 'must be transport names such as usb, nfc, ble, hybrid, internal',
  })
  transports?: string[];
  @IsOptional() @IsString() @MaxLength(65536) authenticatorData?: string;
  @IsOptional() @Nullable() @IsString() @MaxLength(65536) publicKey?: string | null;
  @IsOptional() @IsInt() publicKeyAlgorithm?: number;
}

class CredentialBase implements Pick<AuthenticationResponseJSON & RegistrationResponseJSON, 'id' | 'rawId' | 'type'> {
  @IsString() @MinLength(1) @MaxLength(ID_MAX) @Matches(B64URL, B64URL_MESSAGE) id!: string;
  @IsString() @MinLength(1) @MaxLength(ID_MAX) @Matches(B64URL, B64URL_MESSAGE) rawId!: string;
  @IsIn(['public-key'], { message: 'must be public-key' }) type!: 'public-key';
  @IsOptional() @Nullable() @IsString() @MaxLength(30) authenticatorAttachment?: string | null;
  @IsOptional() @IsObject() clientExtensionResults?: Record<string, unknown>;
}

/** navigator.credentials.get() */
export class AssertionCredentialDto extends CredentialBase {
  @IsObject() @ValidateNested() @Type(() => AssertionResponseDto) response!: AssertionResponseDto;
}

/** navigator.credentials.create() */
export class AttestationCredentialDto extends CredentialBase {
  @IsObject() @ValidateNested() @Type(() => AttestationResponseDto) response!: AttestationResponseDto;
}
