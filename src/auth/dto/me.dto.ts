import { IsString, Length, Matches } from '../../common/validation/class-validator';
import { PASSWORD_INPUT_MAX } from './password-sign-in.dto';

export class ChangePasswordDto {
  @IsString()
  @Length(1, PASSWORD_INPUT_MAX)
  current!: string;

  /** Its strength rule is passwordProblem's. */
  @IsString()
  @Length(1, PASSWORD_INPUT_MAX)
  new!: string;
}

export class ReplaceTotpDto {
  @IsString()
  @Length(1, 100)
  setup_id!: string;

  @IsString({ message: 'must be the 6-digit code from your authenticator' })
  @Matches(/^\d{6}$/, { message: 'must be the 6-digit code from your authenticator' })
  code!: string;
}
