/** A whole monitor body (common settings plus the kind's settings), after defaults are filled. */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from '../../common/validation/class-validator';
import { SLUG } from '../../common/validation/ids';
import { IsName, IsText, Nullable } from '../../common/validation/validators';
import { MONITOR_KINDS, MonitorKind } from '../../probes/kinds';
import type { CommonSettings } from '../../probes/monitor-config';
import {
  DnsSettingsDto,
  HeartbeatSettingsDto,
  HttpSettingsDto,
  PingSettingsDto,
  TcpSettingsDto,
  TlsSettingsDto,
} from './kind-settings.dto';
import {
  DockerSettingsDto,
  MysqlSettingsDto,
  PostgresSettingsDto,
  RedisSettingsDto,
  SmtpSettingsDto,
} from './service-settings.dto';

/**
 * Implements the common settings it checks (probes/monitor-config.ts), so a field added to one and
 * not the other fails to compile; three differ on the wire: `slug` may be left out (one is made from
 * the name), `muted_until` is RFC 3339 text, not epoch ms, and `depends_on` may name monitors by
 * `slug:<slug>` (its entries are checked in depends-on/depends-on-plan.ts). The kind's settings are
 * tied in kind-settings.dto.ts.
 */
export class MonitorDto implements Omit<CommonSettings, 'slug' | 'muted_until' | 'depends_on'> {
  @IsString() @Length(1, 100) @IsName() name!: string;
  @IsOptional() @IsString() @Matches(SLUG, { message: 'must be 1-60 characters of a-z, 0-9 and -' }) slug?: string;
  @IsIn(MONITOR_KINDS, { message: `must be one of ${MONITOR_KINDS.join(', ')}` }) kind!: MonitorKind;
  @Nullable() @IsString() @MaxLength(60) @IsText() group!: string | null;
  @IsArray()
  @ArrayMaxSize(20)
  @ArrayUnique({ message: 'must not repeat a tag' })
  @IsString({ each: true })
  @Length(1, 30, { each: true })
  @IsText({}, { each: true })
  tags!: string[];
  @Nullable() @IsString() @MaxLength(500) @IsText({ lines: true }) description!: string | null;
  @Nullable() @IsString() @MaxLength(2048) runbook_url!: string | null;
  @IsInt() @Min(10) @Max(2_592_000) interval_s!: number;
  @IsInt() @Min(500) @Max(60_000) timeout_ms!: number;
  @IsInt() @Min(1) @Max(10) confirm_after!: number;
  @IsInt() @Min(5) @Max(2_592_000) retry_interval_s!: number;
  @IsInt() @Min(1) @Max(10) recover_after!: number;
  @Nullable() @IsInt() @Min(0) @Max(60_000) slow_ms!: number | null;
  @IsInt() @Min(1) @Max(20) slow_after!: number;
  @IsBoolean() alert_on_slow!: boolean;
  @Nullable()
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique({ message: 'must not repeat a channel' })
  @IsInt({ each: true })
  @Min(1, { each: true })
  channels!: number[] | null;
  @IsArray() @ArrayMaxSize(10) depends_on!: unknown[];
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one location ("local" is the service itself)' })
  @ArrayMaxSize(10)
  @ArrayUnique({ message: 'must not repeat a location' })
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  locations!: string[];
  @Nullable() @IsInt() @Min(1) @Max(10) quorum!: number | null;
  @IsInt() @Min(0) @Max(10_080) remind_every_min!: number;
  @IsBoolean() paused!: boolean;
  @Nullable() @IsString() @MaxLength(40) muted_until!: string | null;
  @IsBoolean() public!: boolean;
  @Nullable() @IsString() @MaxLength(100) @IsName() public_name!: string | null;
  @Nullable() @IsString() @MaxLength(60) @IsText() public_group!: string | null;
  @IsInt() @Min(-1_000_000_000) @Max(1_000_000_000) sort!: number;

  @IsOptional() @ValidateNested() @Type(() => HttpSettingsDto) http?: HttpSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => TcpSettingsDto) tcp?: TcpSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => PingSettingsDto) ping?: PingSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => DnsSettingsDto) dns?: DnsSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => TlsSettingsDto) tls?: TlsSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => HeartbeatSettingsDto) heartbeat?: HeartbeatSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => SmtpSettingsDto) smtp?: SmtpSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => DockerSettingsDto) docker?: DockerSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => RedisSettingsDto) redis?: RedisSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => PostgresSettingsDto) postgres?: PostgresSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => MysqlSettingsDto) mysql?: MysqlSettingsDto;
}
