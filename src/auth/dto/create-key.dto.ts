import { IsIn, IsOptional, IsString, Length, ValidateIf } from '../../common/validation/class-validator';
import { KEY_SCOPES, KeyScope } from '../../common/access/scope';
import { IsName } from '../../common/validation/validators';

export class CreateKeyDto {
  @IsString()
  @Length(1, 100)
  @IsName()
  name!: string;

  @IsIn(KEY_SCOPES, { message: 'must be one of read, write, admin' })
  scope!: KeyScope;

  /** RFC 3339 in the future, or null/absent for a key that never expires (checked by the service). */
  @IsOptional()
  @ValidateIf((o: CreateKeyDto) => o.expires_at !== null)
  @IsString({ message: 'must be an RFC 3339 time or null' })
  expires_at?: string | null;
}
