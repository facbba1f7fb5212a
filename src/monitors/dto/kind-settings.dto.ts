/**
 * Per-kind settings as class-validator DTOs: types and bounds. Rules that span fields or need
 * parsing (URLs, expect_status, json paths, auth completeness) live in monitor-rules.ts.
 * Validation runs after defaults are filled in, so every field is present here. Each class
 * implements the settings type it checks (probes/kinds.ts): a field added to one and not the
 * other fails to compile.
 */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from '../../common/validation/class-validator';
import { IsJsonScalar, Nullable } from '../../common/validation/validators';
import {
  DNS_RECORDS,
  DnsRecord,
  DnsSettings,
  HeartbeatSettings,
  HTTP_METHODS,
  HttpAuth,
  HttpHeader,
  HttpMethod,
  HttpSettings,
  IP_VERSIONS,
  IpVersion,
  JSON_OPS,
  JsonOp,
  JsonRule,
  PingSettings,
  TcpSettings,
  TlsSettings,
} from '../../probes/kinds';

export const MAX_HEADERS = 30;
export const MAX_JSON_RULES = 20;
export const MAX_BODY_BYTES = 64 * 1024;

/** `secret` may be left out: it is then false, except for credential headers (always secret: secrets.ts). */
export class HttpHeaderDto implements Omit<HttpHeader, 'secret'>, Partial<Pick<HttpHeader, 'secret'>> {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @MaxLength(8192) value!: string;
  @IsOptional() @IsBoolean() secret?: boolean;
}

type BasicAuth = Extract<HttpAuth, { type: 'basic' }>;
type BearerAuth = Extract<HttpAuth, { type: 'bearer' }>;

/** Both variants of HttpAuth in one class; which fields a type needs is a rule (monitor-rules.ts). */
export class HttpAuthDto
  implements Pick<HttpAuth, 'type'>, Partial<Omit<BasicAuth, 'type'>>, Partial<Omit<BearerAuth, 'type'>>
{
  @IsIn(['basic', 'bearer'], { message: 'must be basic or bearer' }) type!: 'basic' | 'bearer';
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(1000) password?: string;
  @IsOptional() @IsString() @MaxLength(4096) token?: string;
}

export class JsonRuleDto implements JsonRule {
  @IsString() @Length(1, 200) path!: string;
  @IsIn(JSON_OPS, { message: `must be one of ${JSON_OPS.join(', ')}` }) op!: JsonOp;
  @IsOptional() @IsJsonScalar() value?: string | number | boolean | null;
}

export class ExpectHeaderDto implements NonNullable<HttpSettings['expect_header']> {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @Length(1, 1000) contains!: string;
}

/** `headers` and `auth` are tied through their own classes above. */
export class HttpSettingsDto implements Omit<HttpSettings, 'headers' | 'auth'> {
  @IsString() @Length(1, 2048) url!: string;
  @IsIn(HTTP_METHODS, { message: `must be one of ${HTTP_METHODS.join(', ')}` }) method!: HttpMethod;
  @IsArray()
  @ArrayMaxSize(MAX_HEADERS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => HttpHeaderDto)
  headers!: HttpHeaderDto[];
  @Nullable() @IsString() @MaxLength(MAX_BODY_BYTES) body!: string | null;
  @Nullable() @IsString() @Length(1, 200) content_type!: string | null;
  @Nullable() @IsObject() @ValidateNested() @Type(() => HttpAuthDto) auth!: HttpAuthDto | null;
  @IsBoolean() follow_redirects!: boolean;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: IpVersion;
  @Nullable() @IsString() @MaxLength(45) resolve_to!: string | null;
  @IsBoolean() tls_verify!: boolean;
  @IsInt() @Min(0) @Max(365) tls_warn_days!: number;
  @IsString() @MaxLength(200) expect_status!: string;
  @Nullable() @IsString() @Length(1, 1000) body_contains!: string | null;
  @Nullable() @IsString() @Length(1, 1000) body_not_contains!: string | null;
  @IsArray()
  @ArrayMaxSize(MAX_JSON_RULES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => JsonRuleDto)
  json!: JsonRuleDto[];
  @Nullable() @IsObject() @ValidateNested() @Type(() => ExpectHeaderDto) expect_header!: ExpectHeaderDto | null;
  @Nullable() @IsInt() @Min(1) @Max(60_000) max_ms!: number | null;
  @Nullable() @IsString() @MaxLength(200) cert_sha256!: string | null;
}

export class TcpSettingsDto implements TcpSettings {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(65535) port!: number;
  @Nullable() @IsString() @Length(1, 4096) send!: string | null;
  @Nullable() @IsString() @Length(1, 1000) expect_banner!: string | null;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: IpVersion;
}

export class PingSettingsDto implements PingSettings {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(5) packets!: number;
  @Nullable() @IsInt() @Min(0) @Max(100) max_loss_pct!: number | null;
  @IsIn(IP_VERSIONS, { message: 'must be auto, ipv4 or ipv6' }) ip_version!: IpVersion;
}

export class DnsSettingsDto implements DnsSettings {
  @IsString() @Length(1, 253) name!: string;
  @IsIn(DNS_RECORDS, { message: `must be one of ${DNS_RECORDS.join(', ')}` }) record!: DnsRecord;
  @IsString() @Length(1, 60) resolver!: string;
  @Nullable() @IsString() @Length(1, 1000) expect!: string | null;
}

export class TlsSettingsDto implements TlsSettings {
  @IsString() @Length(1, 253) host!: string;
  @IsInt() @Min(1) @Max(65535) port!: number;
  @Nullable() @IsString() @Length(1, 253) sni!: string | null;
  @IsInt() @Min(0) @Max(365) tls_warn_days!: number;
  @IsBoolean() tls_verify!: boolean;
  @Nullable() @IsString() @MaxLength(200) cert_sha256!: string | null;
}

export class HeartbeatSettingsDto implements HeartbeatSettings {
  @IsInt() @Min(0) @Max(604_800) grace_s!: number;
}
