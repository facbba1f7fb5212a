import { Type } from 'class-transformer';
import {
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from '../../../common/validation/class-validator';
import { IsName } from '../../../common/validation/validators';
import { AssertionCredentialDto, AttestationCredentialDto } from './credential.dto';

export const LABEL_MAX = 100;
const CHALLENGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** POST /auth/passkey/options, /auth/enroll/{token}/options: the bot challenge token, when configured. */
export class PasskeyOptionsDto {
  @IsOptional() @IsString() @MaxLength(4096) challenge?: string;
}

/** POST /auth/passkey/verify, /auth/step-up/passkey/verify */
export class AssertionVerifyDto {
  @IsString()
  @Matches(CHALLENGE_ID, { message: 'must be the challenge_id of the options answer' })
  challenge_id!: string;
  @IsObject() @ValidateNested() @Type(() => AssertionCredentialDto) credential!: AssertionCredentialDto;
}

/** POST /me/passkeys/verify, /auth/enroll/{token}/verify */
export class RegistrationVerifyDto {
  @IsString()
  @Matches(CHALLENGE_ID, { message: 'must be the challenge_id of the options answer' })
  challenge_id!: string;
  @IsObject() @ValidateNested() @Type(() => AttestationCredentialDto) credential!: AttestationCredentialDto;
  /** Optional: a label from the browser's name is given when absent. */
  @IsOptional() @IsString() @Length(1, LABEL_MAX) @IsName() label?: string;
}

/** PATCH /me/passkeys/{id} */
export class RenamePasskeyDto {
  @IsString() @Length(1, LABEL_MAX) @IsName() label!: string;
}
