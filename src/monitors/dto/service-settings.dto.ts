/**
 * Settings of the kinds that check a service by its own protocol (docs/checks.md: smtp, docker),
 * as class-validator DTOs: types and bounds. Parsing rules (hosts, endpoints) live in
 * service-rules.ts. Each class implements the settings type it checks (probes/kinds.ts).
 */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from '../../common/validation/class-validator';
import { Nullable } from '../../common/validation/validators';
import {
  DB_TLS_MODES,
  DbTlsMode,
  DockerSettings,
  GrpcMetadata,
  GrpcSettings,
  MqttSettings,
  MysqlSettings,
  PostgresSettings,
  RedisSettings,
  SMTP_TLS_MODES,
  SmtpSettings,
  SmtpTlsMode,
} from '../../probes/kinds';
import { JsonRuleDto, MAX_JSON_RULES } from './kind-settings.dto';

const DB_TLS_MESSAGE = `must be one of ${DB_TLS_MODES.join(', ')}`;

export class SmtpSettingsDto implements SmtpSettings {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(65535) port!: number;
  @IsIn(SMTP_TLS_MODES, { message: `must be one of ${SMTP_TLS_MODES.join(', ')}` }) tls!: SmtpTlsMode;
  @IsBoolean() tls_verify!: boolean;
  @IsInt() @Min(0) @Max(365) tls_warn_days!: number;
}

export class DockerSettingsDto implements DockerSettings {
  @IsString() @Length(1, 200) container!: string;
  @IsString() @Length(1, 300) endpoint!: string;
  @IsBoolean() require_healthy!: boolean;
}

export class RedisSettingsDto implements RedisSettings {
  @IsString() @Length(1, 2048) url!: string;
  @Nullable() @IsString() @MaxLength(1000) password!: string | null;
  @IsIn(DB_TLS_MODES, { message: DB_TLS_MESSAGE }) tls!: DbTlsMode;
}

export class PostgresSettingsDto implements PostgresSettings {
  @IsString() @Length(1, 2048) url!: string;
  @Nullable() @IsString() @MaxLength(1000) password!: string | null;
  @IsString() @Length(1, 1000) query!: string;
  @IsIn(DB_TLS_MODES, { message: DB_TLS_MESSAGE }) tls!: DbTlsMode;
}

export class MysqlSettingsDto implements MysqlSettings {
  @IsString() @Length(1, 2048) url!: string;
  @Nullable() @IsString() @MaxLength(1000) password!: string | null;
  @IsString() @Length(1, 1000) query!: string;
  @IsIn(DB_TLS_MODES, { message: DB_TLS_MESSAGE }) tls!: DbTlsMode;
}

export class MqttSettingsDto implements MqttSettings {
  @IsString() @Length(1, 2048) url!: string;
  @Nullable() @IsString() @Length(1, 200) username!: string | null;
  @Nullable() @IsString() @MaxLength(1000) password!: string | null;
  @IsIn(DB_TLS_MODES, { message: DB_TLS_MESSAGE }) tls!: DbTlsMode;
  @Nullable() @IsString() @Length(1, 1000) topic!: string | null;
  @Nullable() @IsString() @Length(1, 1000) expect!: string | null;
  @IsArray()
  @ArrayMaxSize(MAX_JSON_RULES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => JsonRuleDto)
  json!: JsonRuleDto[];
}

export class GrpcMetadataDto implements GrpcMetadata {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @MaxLength(4000) value!: string;
  @IsBoolean() secret!: boolean;
}

export class GrpcSettingsDto implements GrpcSettings {
  @IsString() @Length(1, 300) target!: string;
  @IsString() @MaxLength(200) service!: string;
  @IsIn(DB_TLS_MODES, { message: DB_TLS_MESSAGE }) tls!: DbTlsMode;
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => GrpcMetadataDto)
  metadata!: GrpcMetadataDto[];
}
