/**
 * Bodies of the password sign-in routes. Types and lengths only: whether a credential is right is
 * the services' question, and a 422 never depends on whether the email is the owner's.
 */
import { IsOptional, IsString, Length, Matches, MaxLength } from '../../common/validation/class-validator';
import { EMAIL_PATTERN } from './setup.dto';

const CODE_MESSAGE = 'must be the 6-digit code from your authenticator';
/** Long enough for any password the strength rule accepts, short enough not to feed scrypt megabytes. */
export const PASSWORD_INPUT_MAX = 1000;

/** The bot challenge token (checked only when the server has a challenge configured). */
class ChallengeField {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  challenge?: string;
}

export class PasswordDto extends ChallengeField {
  @IsString()
  @MaxLength(254)
  @Matches(EMAIL_PATTERN, { message: 'must be an email address' })
  email!: string;

  @IsString()
  @Length(1, PASSWORD_INPUT_MAX)
  password!: string;
}

/** `code` or `recovery_code`, exactly one (secondFactorOf). */
class SecondFactorFields extends ChallengeField {
  @IsOptional()
  @IsString({ message: CODE_MESSAGE })
  @Matches(/^\d{6}$/, { message: CODE_MESSAGE })
  code?: string;

  @IsOptional()
  @IsString()
  @Length(1, 40)
  recovery_code?: string;
}

export class CodeDto extends SecondFactorFields {
  @IsString()
  @Length(1, 100)
  ticket!: string;
}

export class ForgotDto extends ChallengeField {
  @IsString()
  @MaxLength(254)
  @Matches(EMAIL_PATTERN, { message: 'must be an email address' })
  email!: string;
}

export class ResetDto extends SecondFactorFields {
  @IsString()
  @Length(1, 100)
  token!: string;

  /** The new password; its strength rule is passwordProblem's. */
  @IsString()
  @Length(1, PASSWORD_INPUT_MAX)
  password!: string;
}

/** Step-up needs a signed-in session, which passed the bot challenge when it signed in. */
export class StepUpPasswordDto {
  @IsString()
  @Length(1, PASSWORD_INPUT_MAX)
  password!: string;

  @IsString({ message: CODE_MESSAGE })
  @Matches(/^\d{6}$/, { message: CODE_MESSAGE })
  code!: string;
}
