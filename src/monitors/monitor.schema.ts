/**
 * The monitor routes' bodies and answers for the route description. Bodies are read from the
 * DTOs that validate them (dto/monitor.dto.ts, dto/kind-settings.dto.ts, dto/mute.dto.ts) with
 * the defaults of monitor-defaults.ts; answers follow monitor.mapper.ts. Pure.
 */
import {
  bool,
  described,
  int,
  JsonSchema,
  list,
  nullable,
  num,
  obj,
  oneOfValues,
  page,
  pageQuery,
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
} from '../common/validation/common.schema';
import { DEFAULT_LIMIT } from '../common/http/paging';
import { SLUG_PATTERN } from '../common/validation/ids';
import { dtoSchema, DtoSchemaOptions } from '../common/validation/dto.schema';
import { DEFAULT_SETTINGS } from '../settings/settings-defaults';
import { MONITOR_KINDS, MonitorKind } from '../probes/kinds';
import { MONITOR_STATUSES } from '../probes/status';
import type { BlindDetection } from '../engine/blind/blind-rule';
import { BULK_MAX_ITEMS } from './bulk.service';
import { MonitorDto } from './dto/monitor.dto';
import {
  DnsSettingsDto,
  HeartbeatSettingsDto,
  HttpHeaderDto,
  HttpSettingsDto,
  JsonRuleDto,
  PingSettingsDto,
  TcpSettingsDto,
  TlsSettingsDto,
} from './dto/kind-settings.dto';
import {
  DockerSettingsDto,
  GrpcSettingsDto,
  MqttSettingsDto,
  MysqlSettingsDto,
  PostgresSettingsDto,
  RedisSettingsDto,
  SmtpSettingsDto,
} from './dto/service-settings.dto';
import { MuteDto } from './dto/mute.dto';
import { SERVICE_SETTINGS_DOCS } from './dto/service-settings.docs';
import { commonDefaults, KIND_DEFAULTS, REQUIRED_KIND_FIELDS } from './monitor-defaults';
import { READ_ONLY_FIELDS } from './monitor-input';

type Dto = abstract new (...args: never[]) => object;

const KIND_DTOS: Record<MonitorKind, Dto> = {
  http: HttpSettingsDto,
  tcp: TcpSettingsDto,
  ping: PingSettingsDto,
  dns: DnsSettingsDto,
  tls: TlsSettingsDto,
  heartbeat: HeartbeatSettingsDto,
  smtp: SmtpSettingsDto,
  docker: DockerSettingsDto,
  redis: RedisSettingsDto,
  postgres: PostgresSettingsDto,
  mysql: MysqlSettingsDto,
  mqtt: MqttSettingsDto,
  grpc: GrpcSettingsDto,
};

const d = (description: string): JsonSchema => ({ description });
const CERT_SHA256_DOC =
  'pinned certificate: SHA-256 fingerprint of the leaf certificate (64 hex digits, colons and spaces optional; answered as `AB:CD:…`). ' +
  'When set, only that certificate passes (chain and name are not verified) and another fails with `cert_pin` (docs/checks.md)';

/** The spec's words for each field ("Monitor: common settings", "settings per kind"). */
const DOCS = new Map<Dto, Record<string, JsonSchema>>([
  [
    MonitorDto,
    {
      name: d('display name'),
      slug: d(
        'stable handle for agents and imports; derived from the name when absent or null (docs/monitors.md "Slugs")',
      ),
      kind: d('kind of check; its settings go under the key of the same name'),
      group: d('groups the dashboard list'),
      tags: d('free labels'),
      description: d('shown in alerts'),
      runbook_url: d('http or https URL, linked in alerts'),
      interval_s: d('time between checks: 10-86400 s, for heartbeat 30-2592000 s'),
      timeout_ms: d('whole-check deadline, not above the interval'),
      confirm_after: d('failed checks in a row before Down'),
      retry_interval_s: d('re-check delay after a failure, from 5 s up to the interval'),
      recover_after: d('good checks in a row before Up'),
      slow_ms: d('a good check slower than this is Slow; 0 or null = off'),
      slow_after: d('Slow checks in a row before the monitor shows Slow'),
      alert_on_slow: d('send alerts for Slow'),
      channels: d('channel ids to alert; null = every enabled channel, [] = nobody'),
      depends_on: {
        ...d(
          'monitors this one depends on, by id or `slug:<slug>` (at most 10; no cycle, not itself): while one of them (or one they depend on) is Down, this one joins its incident instead of alerting (docs/dependencies.md)',
        ),
        items: { oneOf: [int(1), str({ pattern: `^slug:${SLUG_PATTERN.slice(1)}` })] },
      },
      locations: d(
        'the probe locations that check it, by name (1-10; default ["local"], the service itself; an unknown name is refused): docs/agents.md',
      ),
      quorum: d(
        'how many online locations must agree for Down (and for Up again): 1 to the number of locations; null = a majority of those online',
      ),
      remind_every_min: d('while Down, remind this often: 0 (never) or 5-10080'),
      paused: d('no checks, no alerts'),
      muted_until: d('RFC 3339 time with an offset; checks run, alerts are held back until then'),
      public: d('shown on the status page'),
      public_name: d('name on the status page (defaults to name)'),
      public_group: d('status page section (defaults to group)'),
      sort: d('order within a group, low first'),
      http: d('settings of an http monitor'),
      tcp: d('settings of a tcp monitor'),
      ping: d('settings of a ping monitor'),
      dns: d('settings of a dns monitor'),
      tls: d('settings of a tls monitor'),
      heartbeat: d('settings of a heartbeat monitor; its ping URL comes from POST /monitors/{id}/heartbeat-token'),
      smtp: d('settings of an smtp monitor: banner, EHLO and TLS of a mail server; no mail is sent'),
      docker: d('settings of a docker monitor: a container through the Docker Engine API'),
      redis: d('settings of a redis monitor: AUTH, SELECT and PING; up on PONG'),
      postgres: d('settings of a postgres monitor: log in and run one read-only query'),
      mysql: d('settings of a mysql monitor (MySQL or MariaDB): log in and run one read-only query'),
      mqtt: d('settings of an mqtt monitor: connect to a broker, and with a topic, judge its first message'),
      grpc: d('settings of a grpc monitor: the standard health service (grpc.health.v1) must answer SERVING'),
    },
  ],
  [
    HttpSettingsDto,
    {
      url: d('http:// or https://; credentials in the URL are moved into `auth`'),
      headers: d(
        'request headers; values of secret headers (and of headers whose names look like credentials) are masked in answers',
      ),
      body: d('request body, up to 64 KB'),
      content_type: d('type of the request body'),
      auth: d('{type: basic, username, password} or {type: bearer, token}; secrets masked in answers'),
      follow_redirects: d('up to 5 hops'),
      resolve_to: d("connect to this IP but keep the URL's host"),
      tls_verify: d('false accepts self-signed or invalid certificates'),
      tls_warn_days: d('warn at 14, 7, 3 and 1 days before expiry; 0 = off'),
      expect_status: d('codes and ranges, comma separated, e.g. `200-299,401`'),
      body_contains: d('text that must appear in the first 1 MB of the body'),
      body_not_contains: d('text that must not appear in the first 1 MB of the body'),
      json: d('rules on the JSON body, all must pass'),
      expect_header: d('a header that must be present and contain this text'),
      max_ms: d('a check slower than this fails (unlike slow_ms, which only marks Slow)'),
      cert_sha256: d(CERT_SHA256_DOC),
    },
  ],
  [HttpHeaderDto, { secret: d('masked in answers; names that look like credentials are always secret') }],
  [JsonRuleDto, { path: d('shape `$.a.b[0]`'), value: d('compared value; none for exists and not_exists') }],
  [TcpSettingsDto, { send: d('text sent after connecting'), expect_banner: d('the first line must start with this') }],
  [PingSettingsDto, { packets: d('passes if any reply comes back') }],
  [DnsSettingsDto, { resolver: d('an IP with an optional `:port`'), expect: d('some answer must contain this text') }],
  [
    TlsSettingsDto,
    {
      sni: d('server name sent in the handshake (default: host)'),
      tls_verify: d(
        'false accepts self-signed, private-CA, expired or misnamed certificates; the certificate is still reported',
      ),
      cert_sha256: d(CERT_SHA256_DOC),
    },
  ],
  [HeartbeatSettingsDto, { grace_s: d('how late a ping may be, on top of interval_s') }],
  [
    SmtpSettingsDto,
    {
      port: d('usually 25 or 587 (starttls) or 465 (implicit)'),
      tls: d(
        'starttls: upgrade after EHLO; implicit: TLS from the first byte; none: plain text (no certificate check)',
      ),
      tls_verify: d('false accepts any certificate; it is still reported, so expiry is still watched'),
      tls_warn_days: d('warn at this many days before the certificate expires, then 7, 3 and 1; 0 = off'),
    },
  ],
  [
    RedisSettingsDto,
    {
      url: d(
        'redis://[user@]host[:port][/db] (db 0-15). A password in the URL is moved into `password`; options after `?` and host lists are refused',
      ),
      password: d(
        'secret, masked in answers; kept when sent back as ******** only while the scheme, host and port stay',
      ),
      tls: d('off; require: encrypted, any certificate; verify: chain, expiry and name checked'),
    },
  ],
  [
    PostgresSettingsDto,
    {
      url: d(
        'postgres://[user@]host[:port][/database]. A password in the URL is moved into `password`; options after `?` and host lists are refused (TLS is `tls`)',
      ),
      password: d(
        'secret, masked in answers; kept when sent back as ******** only while the scheme, host and port stay',
      ),
      query: d(
        'one statement that only reads (SELECT, WITH, SHOW, VALUES, TABLE, EXPLAIN), run in a READ ONLY transaction; at most 64 KB of its answer is read',
      ),
      tls: d('off; require: encrypted, any certificate; verify: chain, expiry and name checked'),
    },
  ],
  [
    MysqlSettingsDto,
    {
      url: d(
        'mysql://[user@]host[:port][/database] (or mariadb://). A password in the URL is moved into `password`; options after `?` and host lists are refused (TLS is `tls`)',
      ),
      password: d(
        'secret, masked in answers; kept when sent back as ******** only while the scheme, host and port stay',
      ),
      query: d(
        'one statement that only reads (SELECT, WITH, SHOW, VALUES, TABLE, EXPLAIN, DESCRIBE), run in a READ ONLY transaction; at most 64 KB of its answer is read',
      ),
      tls: d('off; require: encrypted, any certificate; verify: chain, expiry and name checked'),
    },
  ],
  [
    DockerSettingsDto,
    {
      container: d("the container's name or id"),
      endpoint: d(
        'unix:///path/to/docker.sock, tcp://host:port or https://host:port (TLS, verified against the system roots); the service user needs the docker group for the socket (docs/checks.md#docker)',
      ),
      require_healthy: d('with a health check in the container, only `healthy` is up (`starting` too is down)'),
    },
  ],
  ...SERVICE_SETTINGS_DOCS,
]);

/** Defaults per class, as monitor-defaults.ts fills them (timing defaults from the default settings). */
const DEFAULTS = new Map<Dto, Record<string, unknown>>([
  [MonitorDto, commonDefaults(DEFAULT_SETTINGS.defaults)],
  ...MONITOR_KINDS.map((k): [Dto, Record<string, unknown>] => [KIND_DTOS[k], KIND_DEFAULTS[k]]),
]);
const REQUIRED = new Map<Dto, readonly string[]>([
  [MonitorDto, ['name', 'kind']],
  ...MONITOR_KINDS.map((k): [Dto, readonly string[]] => [KIND_DTOS[k], REQUIRED_KIND_FIELDS[k]]),
]);

/** Bodies: only the fields without a default are required, and null means "the default" (monitor-input.ts step 1). */
const INPUT: DtoSchemaOptions = {
  docs: DOCS,
  required: (cls, byDefault) => REQUIRED.get(cls) ?? byDefault,
  adjust: (cls, property, schema) => {
    const defaults = DEFAULTS.get(cls);
    if (!defaults || !(property in defaults))
      return cls === MonitorDto && property === 'slug' ? withNull(schema) : schema;
    const value = defaults[property];
    const timing = cls === MonitorDto && property in DEFAULT_SETTINGS.defaults ? " (from the settings' defaults)" : '';
    return {
      ...(value === null ? schema : withNull(schema)),
      default: value,
      ...(timing ? { description: `${schema.description ?? ''}${timing}` } : {}),
    };
  },
};
/** PATCH: every field optional; kind settings merge field by field; null clears. */
const PATCH: DtoSchemaOptions = { ...INPUT, required: () => [] };
/** Answers: every field the DTO requires after defaults is present. */
const ANSWER: DtoSchemaOptions = { docs: DOCS };

function withNull(schema: JsonSchema): JsonSchema {
  return nullable(schema);
}

/** The read-only fields of an answer are ignored in a body, so a fetched monitor can be sent back. */
const IGNORED_IN_BODY = Object.fromEntries(
  READ_ONLY_FIELDS.map((f) => [f, { readOnly: true, description: 'answer field; ignored in a body' }]),
);

function monitorBody(opts: DtoSchemaOptions, description: string): JsonSchema {
  const s = dtoSchema(MonitorDto, opts);
  return { ...s, description, properties: { ...(s.properties as Record<string, JsonSchema>), ...IGNORED_IN_BODY } };
}

const STATE = obj(
  {
    status: oneOfValues(MONITOR_STATUSES),
    since: time({ description: 'when the status began' }),
    failing: int(0, undefined, { description: 'failed checks so far, before Down is confirmed' }),
    flapping: bool(),
    muted: bool({ description: 'alerts held back (muted_until in the future)' }),
    last_check_at: nullable(time()),
    last_ok_at: nullable(time()),
    latency_ms: nullable(int(0)),
    error: described(nullable(ref('CheckError')), 'the latest failure'),
    incident_id: described(nullable(int(1)), 'the open incident'),
    cause: described(
      nullable(obj({ monitor_id: int(1), incident_id: int(1) })),
      'Down while a monitor it depends on is Down: that monitor and the incident this one joined instead of opening its own (docs/dependencies.md); null otherwise',
    ),
    cert_expires_at: nullable(time()),
    note: described(
      nullable(str()),
      'why the latest check was not counted (the service was offline, or a network path problem)',
    ),
    maintenance: described(
      nullable(
        obj({ window_id: int(1), title: str(), ends_at: described(nullable(time()), 'null: until stopped by hand') }),
      ),
      'the maintenance window holding the monitor now: no incident opens and no alert goes out (docs/maintenance.md)',
    ),
    locations: described(
      list(
        obj({
          name: str(),
          status: oneOfValues(['up', 'down', 'unknown', 'offline']),
          latency_ms: nullable(num({ minimum: 0 })),
          at: nullable(time()),
          error: nullable(ref('CheckError')),
        }),
      ),
      'each location that checks it (docs/agents.md): its own confirmed status, latest latency, time and error; `offline` when its agent is out of contact (its votes do not count)',
    ),
  },
  { description: 'A monitor\'s live state (spec "Monitor state and stats").' },
);

function monitorAnswer(): JsonSchema {
  const s = dtoSchema(MonitorDto, ANSWER);
  const props = s.properties as Record<string, JsonSchema>;
  const common: Record<string, JsonSchema> = {};
  const kinds: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(props)) {
    if ((MONITOR_KINDS as readonly string[]).includes(name)) kinds[name] = schema;
    else common[name] = schema;
  }
  const slug = { ...common.slug, description: 'stable handle' };
  common.depends_on = list(int(1), {
    maxItems: 10,
    description: 'ids of the monitors this one depends on (docs/dependencies.md)',
  });
  const properties = {
    id: int(1),
    ...common,
    slug,
    target: str({ description: 'one line describing the target' }),
    ...kinds,
    created_at: time(),
    updated_at: time(),
    state: ref('MonitorState'),
    stats: ref('MonitorStats'),
    heartbeat_url: str({ description: 'only in the answer that creates a heartbeat monitor (shown once)' }),
  };
  const required = Object.keys(properties).filter((k) => !(k in kinds) && k !== 'heartbeat_url');
  return {
    ...obj(properties, {
      required,
      description:
        'A monitor: its settings (secrets masked as `********`), the settings of its kind under the key of the same name, its state and stats.',
    }),
    oneOf: MONITOR_KINDS.map((k) => ({ required: [k] })),
  };
}

const BULK_ERROR = obj({
  slug: nullable(str()),
  index: int(0, undefined, { description: 'position in `monitors`' }),
  fields: list(ref('FieldError')),
});

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function monitorSchemas(): SchemaSet {
  return {
    MonitorInput: monitorBody(
      INPUT,
      "A monitor body: the common settings, `kind`, and the kind's settings under the key of the same name. `null` for a field with a default gives the default.",
    ),
    MonitorPatch: monitorBody(
      PATCH,
      "Only the fields to change; kind settings merge field by field; `null` clears (or gives the default). A change of kind starts the new kind's settings afresh.",
    ),
    Monitor: monitorAnswer(),
    MonitorState: STATE,
    MonitorList: page(ref('Monitor'), int()),
    BulkInput: obj(
      {
        monitors: list(ref('MonitorInput'), { maxItems: BULK_MAX_ITEMS }),
        dry_run: bool({
          default: false,
          description: 'run every step but the write and answer what a real run would do',
        }),
      },
      { required: ['monitors'] },
    ),
    BulkAnswer: obj({
      created: list(str(), { description: 'slugs' }),
      updated: list(str()),
      unchanged: list(str()),
      errors: list(BULK_ERROR, {
        description: 'items with problems; valid items are still applied (docs/monitors.md)',
      }),
    }),
    Mute: { ...dtoSchema(MuteDto), description: 'give exactly one: `until` (RFC 3339) or `minutes`' },
    HeartbeatUrl: obj({ heartbeat_url: str({ description: '`{base_url}/hb/<token>`; the old URL stops working' }) }),
    Summary: obj({
      counts: obj(Object.fromEntries(['total', ...MONITOR_STATUSES].map((s) => [s, int(0)]))),
      open_incidents: int(0),
      blind: obj({
        active: bool(),
        since: nullable(time()),
        detection: oneOfValues(['off', 'pending', 'unavailable', 'ok'] satisfies BlindDetection[], {
          description: "ours, beside the spec's fields: whether blind detection can work (docs/engine.md)",
        }),
      }),
      checks_per_min: num({ minimum: 0 }),
      groups: list(str()),
      tags: list(str()),
    }),
  };
}

export const MONITOR_LIST_QUERY: QueryParam[] = [
  { name: 'status', schema: oneOfValues(MONITOR_STATUSES), description: 'only monitors with this status' },
  { name: 'group', schema: str({ maxLength: 200 }), description: 'only this group' },
  { name: 'tag', schema: str({ maxLength: 200 }), description: 'only monitors with this tag' },
  { name: 'kind', schema: oneOfValues(MONITOR_KINDS), description: 'only this kind' },
  { name: 'q', schema: str({ maxLength: 200 }), description: 'matches name, slug and target (case-insensitive)' },
  ...pageQuery(DEFAULT_LIMIT, 'a monitor id: the `next_cursor` of the previous page (newest first)'),
];
