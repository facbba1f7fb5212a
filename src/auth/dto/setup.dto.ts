import { IsOptional, IsString, Length, Matches, MaxLength } from '../../common/validation/class-validator';

export const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;

export class SetupDto {
  @IsString()
  @MaxLength(254)
  @Matches(EMAIL_PATTERN, { message: 'must be an email address' })
  email!: string;

  /** Strength is checked by passwordProblem (one rule, documented in docs/security.md). */
  @IsString()
  @MaxLength(1000)
  password!: string;

  @IsString()
  @Length(6, 6, { message: 'must be the 6-digit code from your authenticator' })
  @Matches(/^\d{6}$/, { message: 'must be the 6-digit code from your authenticator' })
  code!: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  challenge?: string;

  /**
   * Saves this address as the public URL (docs/configuration.md): only while none is configured,
   * and only the origin the setup page is open at.
   */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  public_url?: string;
}
