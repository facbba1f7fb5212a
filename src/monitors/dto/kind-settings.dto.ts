/**
 * Per-kind settings as class-validator DTOs: types and bounds. Rules that span fields or need
 * parsing (URLs, expect_status, json paths, auth completeness) live in monitor-rules.ts.
 * Validation runs after defaults are filled in, so every field is present here.
 */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateNested,
} from '../../common/class-validator';
import { IsJsonScalar, Nullable } from '../../common/validators';
import { DNS_RECORDS, HTTP_METHODS, IP_VERSIONS, JSON_OPS } from '../../probes/kinds';

export const MAX_HEADERS = 30;
export const MAX_JSON_RULES = 20;
export const MAX_BODY_BYTES = 64 * 1024;

export class HttpHeaderDto {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @MaxLength(8192) value!: string;
  @IsOptional() @IsBoolean() secret?: boolean;
}

export class HttpAuthDto {
  @IsIn(['basic', 'bearer'], { message: 'must be basic or bearer' }) type!: 'basic' | 'bearer';
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(1000) password?: string;
  @IsOptional() @IsString() @MaxLength(4096) token?: string;
}

export class JsonRuleDto {
  @IsString() @Length(1, 200) path!: string;
  @IsIn(JSON_OPS, { message: `must be one of ${JSON_OPS.join(', ')}` }) op!: string;
  @IsOptional() @IsJsonScalar() value?: string | number | boolean | null;
}

export class ExpectHeaderDto {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @Length(1, 1000) contains!: string;
}

export class HttpSettingsDto {
  @IsString() @Length(1, 2048) url!: string;
  @IsIn(HTTP_METHODS, { message: `must be one of ${HTTP_METHODS.join(', ')}` }) method!: string;
  @IsArray() @ArrayMaxSize(MAX_HEADERS) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => HttpHeaderDto) headers!: HttpHeaderDto[];
  @Nullable() @IsString() @MaxLength(MAX_BODY_BYTES) body!: string | null;
  @Nullable() @IsString() @Length(1, 200) content_type!: string | null;
  @Nullable() @IsObject() @ValidateNested() @Type(() => HttpAuthDto) auth!: HttpAuthDto | null;
  @IsBoolean() follow_redirects!: boolean;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: string;
  @Nullable() @IsString() @MaxLength(45) resolve_to!: string | null;
  @IsBoolean() tls_verify!: boolean;
  @IsInt() @Min(0) @Max(365) tls_warn_days!: number;
  @IsString() @MaxLength(200) expect_status!: string;
  @Nullable() @IsString() @Length(1, 1000) body_contains!: string | null;
  @Nullable() @IsString() @Length(1, 1000) body_not_contains!: string | null;
  @IsArray() @ArrayMaxSize(MAX_JSON_RULES) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => JsonRuleDto) json!: JsonRuleDto[];
  @Nullable() @IsObject() @ValidateNested() @Type(() => ExpectHeaderDto) expect_header!: ExpectHeaderDto | null;
  @Nullable() @IsInt() @Min(1) @Max(60_000) max_ms!: number | null;
  @Nullable() @IsString() @MaxLength(200) cert_sha256!: string | null;
}

export class TcpSettingsDto {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(65535) port!: number;
  @Nullable() @IsString() @Length(1, 4096) send!: string | null;
  @Nullable() @IsString() @Length(1, 1000) expect_banner!: string | null;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: string;
}

export class PingSettingsDto {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(5) packets!: number;
  @Nullable() @IsInt() @Min(0) @Max(100) max_loss_pct!: number | null;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: string;
}

export class DnsSettingsDto {
  @IsString() @Length(1, 253) name!: string;
  @IsIn(DNS_RECORDS, { message: `must be one of ${DNS_RECORDS.join(', ')}` }) record!: string;
  @IsString() @Length(1, 60) resolver!: string;
  @Nullable() @IsString() @Length(1, 1000) expect!: string | null;
}

export class TlsSettingsDto {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(65535) port!: number;
  @Nullable() @IsString() @Length(1, 253) sni!: string | null;
  @IsInt() @Min(0) @Max(365) tls_warn_days!: number;
  @IsBoolean() tls_verify!: boolean;
  @Nullable() @IsString() @MaxLength(200) cert_sha256!: string | null;
}

export class HeartbeatSettingsDto {
  @IsInt() @Min(0) @Max(604_800) grace_s!: number;
}
