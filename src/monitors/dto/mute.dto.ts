import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from '../../common/validation/class-validator';

export const MUTE_MAX_MINUTES = 525_600;

/** {until: RFC 3339} or {minutes: integer}; exactly one (checked by the service). */
export class MuteDto {
  @IsOptional() @IsString() @MaxLength(40) until?: string;
  @IsOptional() @IsInt() @Min(1) @Max(MUTE_MAX_MINUTES) minutes?: number;
}
