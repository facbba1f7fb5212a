/**
 * Settings, export, import and diagnostics (spec "Settings object", "Export document"; docs
 * settings.md, export-import.md, diagnostics.md). Ranges come from the validator itself
 * (settings/settings-patch.ts SETTING_RANGES), defaults from settings/settings-defaults.ts, the
 * limits of an import from system/import-document.ts, so the document cannot drift from what the
 * routes accept; test/openapi/answers.e2e-spec.ts holds real answers against these schemas. Pure.
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
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
} from '../../common/validation/common.schema';
import { MONITOR_KINDS } from '../../probes/kinds';
import { DEFAULT_SETTINGS } from '../../settings/settings-defaults';
import { NumericSetting, SETTING_RANGES } from '../../settings/settings-patch';
import { EXPORT_FORMAT, TOKEN_FIELD } from '../../system/export-document';
import { IMPORT_MAX_CHANNELS, IMPORT_MAX_MONITORS } from '../../system/import-document';
import { SUBSCRIBERS_EXPORT_SCHEMA } from '../routes/subscribers.routes';

/** A writable number: its range from the validator (and its step), its default from the stored defaults. */
function setting(path: NumericSetting, fallback: number): JsonSchema {
  const r: { min: number; max: number; step?: number } = SETTING_RANGES[path];
  return int(r.min, r.max, { default: fallback, ...(r.step ? { multipleOf: r.step } : {}) });
}

const D = DEFAULT_SETTINGS;
const DEFAULTS = obj(
  {
    interval_s: setting('defaults.interval_s', D.defaults.interval_s),
    timeout_ms: described(setting('defaults.timeout_ms', D.defaults.timeout_ms), 'not above interval_s × 1000'),
    confirm_after: setting('defaults.confirm_after', D.defaults.confirm_after),
    retry_interval_s: described(
      setting('defaults.retry_interval_s', D.defaults.retry_interval_s),
      'not above interval_s',
    ),
    recover_after: setting('defaults.recover_after', D.defaults.recover_after),
    slow_after: setting('defaults.slow_after', D.defaults.slow_after),
  },
  { description: 'used for new monitors' },
);
const RETENTION = obj(
  {
    checks_days: setting('retention.checks_days', D.retention.checks_days),
    hourly_days: setting('retention.hourly_days', D.retention.hourly_days),
    events_days: setting('retention.events_days', D.retention.events_days),
  },
  { description: 'days kept, applied by the nightly retention' },
);
const TZ = described(
  setting('tz_offset_min', D.tz_offset_min),
  'minutes east of UTC; drives uptime days, bars and history months',
);
const EMAIL = obj(
  {
    configured: bool({ readOnly: true }),
    providers: list(str(), { readOnly: true }),
    from: str({ readOnly: true }),
    daily_cap: setting('email.daily_cap', D.daily_cap),
    sent_today: int(0, undefined, { readOnly: true }),
  },
  { description: 'the mail path: read-only but for daily_cap' },
);
const PRIVATE = bool({
  default: D.allow_private_targets,
  description: 'checks may reach private addresses; changed only by an owner session',
});

const METRICS_PUBLIC = bool({
  default: D.metrics_public,
  description: 'GET /metrics answers without an API key or session (docs/metrics.md)',
});

const WATCHDOG = described(
  nullable(
    obj({
      url: str({
        description: 'http or https; a secret: always `********` in answers, and sent back as is to keep it',
      }),
      interval_s: setting('watchdog.interval_s', 60),
    }),
  ),
  'the dead-man ping of the service itself (docs/watchdog.md); null: off',
);

const SETTINGS = obj({
  defaults: DEFAULTS,
  tz_offset_min: TZ,
  email: EMAIL,
  owner_email: described(nullable(str({ readOnly: true })), 'read-only: the owner account'),
  public_url: str({ readOnly: true, description: 'read-only: FARSIGHT_PUBLIC_URL' }),
  retention: RETENTION,
  allow_private_targets: PRIVATE,
  metrics_public: METRICS_PUBLIC,
  watchdog: WATCHDOG,
});

/** A PATCH body: the GET answer's shape, every key optional (read-only keys accepted when unchanged). */
function patchOf(s: JsonSchema): JsonSchema {
  const props = s.properties as Record<string, JsonSchema> | undefined;
  if (!props) return s;
  return {
    ...s,
    properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, patchOf(v)])),
    required: undefined,
  };
}

const ITEMS = (key: 'slug' | 'name') =>
  obj({
    created: list(str()),
    updated: list(str()),
    unchanged: list(str()),
    errors: list(obj({ [key]: nullable(str()), index: int(0), fields: list(ref('FieldError')) })),
  });

const COUNT = int(0);

export function systemSchemas(): SchemaSet {
  return {
    Settings: {
      ...SETTINGS,
      description:
        'The settings object (spec "Settings object"), plus allow_private_targets, metrics_public and watchdog.',
    },
    SettingsPatch: {
      ...patchOf(SETTINGS),
      description:
        'Every key optional; only the keys sent change. Read-only keys are accepted when they hold the value shown (a GET answer can be sent back). An unknown or out-of-range key is 422 naming it.',
    },
    Export: obj(
      {
        service_export: { const: EXPORT_FORMAT, description: 'format number' },
        exported_at: time(),
        monitors: list(
          anyObject({
            description: `a monitor body (its writable fields), channels named by channel name; heartbeat monitors also carry ${TOKEN_FIELD}`,
          }),
        ),
        channels: list(anyObject({ description: 'name, kind, enabled, events, config' })),
        status_page: anyObject({
          description: 'the status page settings without url, logo, domains, server_ips and monitors',
        }),
        maintenance: list(
          anyObject({
            description:
              'a maintenance window: title, description, monitors (slugs, or null for every monitor), schedule, public, announce_h; sorted by title (docs/maintenance.md)',
          }),
        ),
        subscribers: SUBSCRIBERS_EXPORT_SCHEMA,
      },
      {
        required: ['service_export', 'exported_at', 'monitors', 'channels', 'status_page', 'maintenance'],
        description:
          'Secrets are masked unless `?secrets=1`; keys in a stable order, so two exports of the same setup diff cleanly.',
      },
    ),
    Import: obj(
      {
        service_export: { const: EXPORT_FORMAT },
        exported_at: time(),
        monitors: list(anyObject(), { maxItems: IMPORT_MAX_MONITORS }),
        channels: list(anyObject(), { maxItems: IMPORT_MAX_CHANNELS }),
        status_page: anyObject(),
        maintenance: list(anyObject(), {
          maxItems: 1000,
          description: 'optional: maintenance windows matched by title, monitors by slug',
        }),
        subscribers: SUBSCRIBERS_EXPORT_SCHEMA,
        dry_run: bool({ default: true }),
      },
      {
        required: ['service_export', 'monitors', 'channels', 'status_page'],
        description: 'an export document plus dry_run; all or nothing when not a dry run',
      },
    ),
    ImportAnswer: obj(
      {
        dry_run: bool(),
        applied: bool({ description: 'true only when the import was written' }),
        // The spec: "like bulk": the monitors' report at the top level, as BulkAnswer has it.
        ...(ITEMS('slug').properties as Record<string, JsonSchema>),
        channels: ITEMS('name'),
        status_page: obj({ changed: bool(), errors: list(ref('FieldError')) }),
        maintenance: obj({
          created: list(str()),
          updated: list(str()),
          unchanged: list(str()),
          errors: list(ref('FieldError'), { description: 'by field: `maintenance[i].schedule.tz`' }),
        }),
        subscribers: obj(
          {
            added: int(0, undefined, { description: 'confirmed addresses not stored before' }),
            errors: list(ref('FieldError'), { description: 'by field: `subscribers[i].email`' }),
          },
          { description: 'only when the document has subscribers' },
        ),
      },
      {
        required: [
          'dry_run',
          'applied',
          'created',
          'updated',
          'unchanged',
          'errors',
          'channels',
          'status_page',
          'maintenance',
        ],
        description:
          'Like bulk (POST /monitors/bulk): the monitors\' created, updated, unchanged and errors (by slug) at the top level; channels (by name) and the status page under their own keys (docs/export-import.md "The answer").',
      },
    ),
    KumaReport: obj(
      {
        source: str({
          description:
            'what the file is: `Uptime Kuma 1.23 database`, `Uptime Kuma 2.x database (last migration …)`, `Uptime Kuma 1.23.16 backup`',
        }),
        dry_run: bool(),
        applied: bool({ description: 'true only when the import was written' }),
        counts: obj({ created: COUNT, updated: COUNT, unchanged: COUNT, skipped: COUNT }),
        items: list(
          obj({
            type: oneOfValues(['monitor', 'channel', 'maintenance', 'status_page']),
            kuma_id: nullable(int()),
            name: str({ description: 'the name in Kuma' }),
            key: nullable(str({ description: "the monitor's slug or the channel's name here" })),
            outcome: oneOfValues(['created', 'updated', 'unchanged', 'skipped']),
            reason: nullable(str({ description: 'why it is skipped' })),
            notes: list(str(), { description: 'what was not kept, or changed to fit' }),
          }),
        ),
      },
      { description: 'One entry per Kuma item, in the file\'s order (docs/import-kuma.md "The report").' },
    ),
    Diagnostics: obj(
      {
        version: str(),
        started_at: time(),
        uptime_s: COUNT,
        memory: obj({ rss_bytes: COUNT, heap_used_bytes: COUNT, heap_total_bytes: COUNT, external_bytes: COUNT }),
        monitors: obj({
          total: COUNT,
          running: COUNT,
          paused: COUNT,
          by_kind: obj(Object.fromEntries(MONITOR_KINDS.map((k) => [k, COUNT]))),
        }),
        checks_per_min: num({ minimum: 0 }),
        database: obj({
          size_bytes: COUNT,
          wal_bytes: COUNT,
          writable: bool(),
          failing_since: nullable(time()),
          last_error: nullable(str()),
        }),
        writer: obj({
          queue_length: COUNT,
          last_flush_at: nullable(time()),
          last_flush_ms: nullable(num({ minimum: 0 })),
          written: COUNT,
          flushes: COUNT,
          failures: COUNT,
          failing_in_row: COUNT,
          dropped: COUNT,
          last_error: nullable(str()),
          last_error_at: nullable(time()),
        }),
        scheduler: obj({
          scheduled: COUNT,
          in_flight: COUNT,
          lateness_p50_ms: num({ minimum: 0 }),
          lateness_p99_ms: num({ minimum: 0 }),
          lateness_max_ms: num({ minimum: 0 }),
          lateness_samples: COUNT,
        }),
        canary: obj({
          detection: str(),
          blind: bool(),
          blind_since: nullable(time()),
          canaries: list(obj({ canary: str(), answered: bool() })),
        }),
        outbox: obj(Object.fromEntries(['pending', 'sending', 'retrying', 'sent', 'failed'].map((s) => [s, COUNT]))),
        email: obj({
          configured: bool(),
          providers: list(str()),
          daily_cap: COUNT,
          sent_today: COUNT,
          failed_today: COUNT,
          cap_reached: bool(),
          note: described(
            nullable(str()),
            'without a mail provider: that mail is not configured, with the variables to set (nothing is attempted, so nothing fails); null otherwise',
          ),
        }),
        egress: obj({
          bytes_per_day: num({ minimum: 0 }),
          checks_per_day: num({ minimum: 0 }),
          by_kind: obj(
            Object.fromEntries(
              MONITOR_KINDS.map((k) => [
                k,
                obj({ monitors: COUNT, checks_per_day: num({ minimum: 0 }), bytes_per_day: num({ minimum: 0 }) }),
              ]),
            ),
            { required: [], description: 'only kinds that have running monitors' },
          ),
        }),
        watchdog: obj(
          {
            configured: bool(),
            interval_s: nullable(int(30, 3600)),
            last_ping_at: nullable(time()),
            last_ok_at: nullable(time()),
            last_status: nullable(int(100, 599)),
            last_answer: described(nullable(str({ maxLength: 220 })), '`HTTP <status>: <start of the body>`'),
            last_error: nullable(str()),
            failing_since: nullable(time()),
            failures_in_row: COUNT,
            skipped_blind_at: nullable(time()),
          },
          { description: 'the dead-man ping of the service itself (docs/watchdog.md); the URL is never shown' },
        ),
        problems: list(
          obj({ at: time(), level: oneOfValues(['warn', 'error']), context: str(), message: str({ maxLength: 500 }) }),
          {
            maxItems: 50,
            description: 'the last 50 warnings and errors logged, secrets masked',
          },
        ),
      },
      { description: 'How the service is doing (docs/diagnostics.md lists every field).' },
    ),
  };
}

export const KUMA_QUERY: QueryParam[] = [
  { name: 'apply', schema: oneOfValues(['true', 'false']), description: '`true` writes; default `false`: a dry run' },
];

export const EXPORT_QUERY: QueryParam[] = [
  { name: 'secrets', schema: oneOfValues(['1']), description: '`1` answers secrets unmasked' },
];
