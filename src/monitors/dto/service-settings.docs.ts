/**
 * The route description's words for the settings of the mqtt and grpc kinds (docs/checks.md#mqtt), beside
 * their DTOs; monitor.schema.ts spreads them into its table of field descriptions.
 */
import type { JsonSchema } from '../../common/validation/common.schema';
import { GrpcMetadataDto, GrpcSettingsDto, MqttSettingsDto } from './service-settings.dto';

const d = (description: string): JsonSchema => ({ description });

export const SERVICE_SETTINGS_DOCS: [abstract new (...args: never[]) => object, Record<string, JsonSchema>][] = [
  [
    MqttSettingsDto,
    {
      url: d(
        'mqtt://host[:port] (1883) or mqtts://host[:port] (8883), no path. A user and password in the URL are moved into `username` and `password`; options after `?` are refused',
      ),
      username: d('user name of the CONNECT; null: none'),
      password: d(
        'secret, masked in answers; kept when sent back as ******** only while the scheme, host and port stay',
      ),
      tls: d(
        'off; require: encrypted, any certificate; verify: chain, expiry and name checked (mqtts:// needs one of them)',
      ),
      topic: d(
        'a topic filter (`+` and `#` allowed) to subscribe to; its first message (a retained one counts) decides. null: up once the broker accepts the connection',
      ),
      expect: d('text the first message must contain (needs a topic)'),
      json: d('rules on the first message read as JSON, all must pass (needs a topic); as http `json`'),
    },
  ],
  [
    GrpcSettingsDto,
    {
      target: d('host:port of the gRPC server (an IPv6 address in brackets); no scheme'),
      service: d('the service asked about in HealthCheckRequest; empty for the server as a whole'),
      tls: d('off (plain-text HTTP/2); require: encrypted, any certificate; verify: chain, expiry and name checked'),
      metadata: d(
        'request metadata (headers) sent with the Check call; secret values (and those whose names look like credentials) are masked in answers',
      ),
    },
  ],
  [
    GrpcMetadataDto,
    {
      name: d('lowercase ASCII letters, digits, `-`, `_` and `.`; not `grpc-…` nor a binary `-bin` header'),
      secret: d('masked in answers; kept for ******** only while the target stays'),
    },
  ],
];
