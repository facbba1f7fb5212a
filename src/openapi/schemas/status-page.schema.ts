/**
 * Status page settings and the public status JSON (spec "Status page settings", "Public status
 * JSON"). The status page is built in its own module, in another branch; until its code is here
 * these schemas follow the spec and leave room for fields it adds (additionalProperties). Pure.
 */
import {
  anyObject,
  bool,
  described,
  int,
  JsonSchema,
  list,
  nullable,
  num,
  obj,
  oneOfValues,
  SchemaSet,
  str,
  time,
} from '../../common/validation/common.schema';
import { TEXT_RULE_WORDS } from '../../common/validation/text-rules';

export const STATUS_RANGES = ['24h', '7d', '30d', '90d', '12mo'] as const;
const OVERALL = oneOfValues(['operational', 'degraded', 'partial_outage', 'major_outage']);
const BAR_STATES = oneOfValues(['not_watched', 'no_data', 'ok', 'maintenance', 'warn', 'bad'], {
  description:
    'maintenance: more than half of the time with data was in a maintenance window, and the rest was not bad (docs/maintenance.md)',
});
const DOMAIN_STATES = [
  'checking',
  'dns_missing',
  'dns_elsewhere',
  'proxied',
  'certificate',
  'live',
  'failed',
  'not_managed',
] as const;
const LINK = (schemes: string): JsonSchema =>
  obj({ label: str({ description: TEXT_RULE_WORDS.name }), url: str({ description: `${schemes} URL` }) });
const open = { additionalProperties: true } as const;

const LOOK: Record<string, JsonSchema> = {
  layout: oneOfValues(['horizon', 'classic', 'ledger'], { default: 'horizon' }),
  theme: oneOfValues(['auto', 'light', 'dark'], { default: 'auto', description: 'auto follows the visitor' }),
  accent: str({ pattern: '^#[0-9a-fA-F]{6}$', default: '#564be6' }),
  palette: oneOfValues(['standard', 'colorblind'], { default: 'standard' }),
  font: oneOfValues(['geist', 'plex', 'system'], { default: 'geist' }),
  bar_style: oneOfValues(['worst', 'share'], { default: 'worst' }),
  bar_shape: oneOfValues(['rounded', 'square', 'slim'], { default: 'rounded' }),
  ranges: list(oneOfValues(STATUS_RANGES), { minItems: 1, uniqueItems: true, default: [...STATUS_RANGES] }),
  default_range: oneOfValues(STATUS_RANGES, { default: '90d', description: 'one of ranges' }),
  show_response: bool({ default: true }),
  show_uptime: bool({ default: true }),
  show_summary: bool({ default: true }),
  show_locations: bool({
    default: false,
    description: "each service's latency from each of its probe locations (only services checked from more than one)",
  }),
  fold_groups: bool({ default: true, description: 'fold sections whose services are all fine' }),
  auto_refresh: bool({ default: false, description: 'refresh every minute' }),
  website: nullable(LINK('http or https')),
  links: list(LINK('http, https or mailto'), { maxItems: 3, default: [] }),
  subscribers: bool({
    default: false,
    description:
      'visitors may subscribe by mail to public incidents and announced maintenance (POST /api/public/subscribe)',
  }),
};

const SETTINGS: Record<string, JsonSchema> = {
  enabled: bool(),
  title: str({ description: TEXT_RULE_WORDS.name }),
  app_name: str({
    maxLength: 30,
    description: `the name under the home-screen icon; empty means the title; otherwise ${TEXT_RULE_WORDS.name}`,
  }),
  description: str({ description: TEXT_RULE_WORDS.lines }),
  hosts: list(str(), {
    maxItems: 5,
    description: 'custom hosts: stored lowercase, punycode, no final dot, never an address',
  }),
  group_order: list(str({ description: TEXT_RULE_WORDS.name }), { description: 'section names in order' }),
  monitors: list(
    obj(
      {
        id: int(1),
        public: bool(),
        public_name: nullable(str({ description: TEXT_RULE_WORDS.name })),
        public_group: nullable(str({ description: TEXT_RULE_WORDS.line })),
        sort: int(),
      },
      { required: ['id'] },
    ),
    { description: "each listed monitor's public settings, updated at once" },
  ),
  ...LOOK,
};

const DOMAIN = obj(
  {
    host: str(),
    state: oneOfValues(DOMAIN_STATES),
    detail: nullable(str()),
    checked_at: nullable(time()),
    points_at: list(str()),
    zone: nullable(str()),
    provider: nullable(str()),
    records: list(
      obj({
        type: oneOfValues(['A', 'AAAA']),
        name: str({ description: 'the host, in full' }),
        value: str({ description: 'an address of server_ips' }),
      }),
      { description: 'the records to create; present only while the DNS is not right' },
    ),
    dashboard: str({ description: "the DNS provider's dashboard; present only while the DNS is not right" }),
  },
  { required: ['host', 'state', 'detail', 'checked_at', 'points_at', 'zone', 'provider'], ...open },
);

const BAR = obj(
  {
    period: str(),
    label: str(),
    state: BAR_STATES,
    uptime: described(nullable(num()), 'up / (up + down) time, time in maintenance left out; null without such time'),
    down_ms: int(0),
    maintenance_ms: int(0, undefined, { description: 'time in maintenance windows: in neither side of uptime' }),
    avg_ms: nullable(num()),
  },
  open,
);
const SERVICE = obj(
  {
    name: str(),
    page: str({ description: 'path `/status/<name>`' }),
    status: str(),
    affected_by: described(
      nullable(str()),
      'down because a service it depends on is down: that service\'s public name, or "another service" (docs/dependencies.md)',
    ),
    uptime: nullable(num()),
    down_ms: int(0),
    typical_ms: nullable(num()),
    locations: described(
      list(obj({ name: str(), typical_ms: nullable(int(0)) }, open)),
      'only with show_locations, on a service checked from more than this service: the average response time of its good checks over the last 24 hours from each of its locations (docs/agents.md)',
    ),
    from: str({ description: 'text' }),
    bars: list(BAR),
  },
  {
    required: ['name', 'page', 'status', 'affected_by', 'uptime', 'down_ms', 'typical_ms', 'from', 'bars'],
    ...open,
  },
);
const PUBLIC_INCIDENT = obj(
  { name: str(), page: str(), started_at: time(), ended_at: nullable(time()), duration_ms: int(0) },
  open,
);

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function statusPageSchemas(): SchemaSet {
  return {
    StatusPageUpdate: obj(SETTINGS, {
      required: [],
      description:
        'every key optional; validated before anything is saved; `hosts` needs scope admin (and a fresh sign-in for a session)',
    }),
    StatusPage: obj(
      {
        ...SETTINGS,
        url: str({ description: "the page's address" }),
        logo: described(
          nullable(obj({ url: str(), type: str(), icon: nullable(str()) }, open)),
          '`icon` is null until an icon is made from the logo',
        ),
        server_ips: list(str()),
        domains: list(DOMAIN, { description: 'one per host' }),
      },
      { required: ['enabled', 'title', 'hosts', 'url', 'logo', 'server_ips', 'domains'], ...open },
    ),
    Upload: obj({ ok: bool({ const: true }), v: { type: ['string', 'integer'], description: 'version' }, url: str() }),
    Preview: obj(
      {
        settings: anyObject({ description: 'draft settings, as in PUT (hosts ignored)' }),
        monitors: list(anyObject()),
        range: oneOfValues(STATUS_RANGES),
      },
      { required: [] },
    ),
    PreviewAnswer: obj({
      html: str({ description: 'the page drawn from saved settings with the draft on top, marked as a preview' }),
      range: oneOfValues(STATUS_RANGES),
    }),
    PublicStatus: obj(
      {
        title: str(),
        description: nullable(str()),
        overall: OVERALL,
        updated_at: time(),
        range: oneOfValues(STATUS_RANGES),
        ranges: list(oneOfValues(STATUS_RANGES)),
        summary: obj(
          {
            overall: OVERALL,
            uptime: nullable(num()),
            incidents: int(0),
            longest_ms: nullable(int(0)),
            typical_ms: nullable(num()),
            services: int(0),
          },
          open,
        ),
        groups: list(
          obj(
            { name: nullable(str()), status: str(), uptime: nullable(num()), bars: list(BAR), services: list(SERVICE) },
            open,
          ),
        ),
        incidents: obj({ open: list(PUBLIC_INCIDENT), recent: list(anyObject()) }, open),
        maintenance: list(
          obj({
            title: str(),
            description: nullable(str({ description: 'as the owner wrote it (Markdown source)' })),
            state: oneOfValues(['scheduled', 'active']),
            starts_at: time(),
            ends_at: described(nullable(time()), 'null: until further notice (started by hand)'),
            services: list(str(), { description: 'public names of the public services it holds, in page order' }),
          }),
          {
            description:
              'public maintenance windows in progress or announced (starting within their announce_h); docs/maintenance.md',
          },
        ),
      },
      { description: 'Monitor ids, hosts, addresses and errors never appear in it.', ...open },
    ),
  };
}
