/**
 * Settings, export, import and diagnostics (spec "Settings object", "Export document"; issue 15).
 * Their routes are built in another branch; until their code is here these schemas follow the
 * spec and the issue, use the stored settings' own defaults (settings/settings-defaults.ts), and
 * leave room for fields that code adds (additionalProperties). Pure.
 */
import { anyObject, bool, int, list, nullable, obj, QueryParam, ref, SchemaSet, str, time, oneOfValues } from '../../common/common.schema';
import { DEFAULT_SETTINGS } from '../../settings/settings-defaults';

const open = { additionalProperties: true } as const;
const withDefaults = (values: Record<string, number>) =>
  obj(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, int(0, undefined, { default: v })])));

const DEFAULTS = withDefaults({ ...DEFAULT_SETTINGS.defaults });
const RETENTION = withDefaults({ ...DEFAULT_SETTINGS.retention });

const ITEM_RESULTS = obj(
  {
    created: list(str()),
    updated: list(str()),
    unchanged: list(str()),
    errors: list(obj({ slug: nullable(str()), index: int(0), fields: list(ref('FieldError')) }, open)),
  },
  open,
);

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function systemSchemas(): SchemaSet {
  return {
    Settings: obj(
      {
        defaults: { ...DEFAULTS, description: 'used for new monitors' },
        tz_offset_min: int(-840, 840, { default: DEFAULT_SETTINGS.tz_offset_min, description: 'drives uptime days, bars and history months' }),
        email: obj(
          { configured: bool(), providers: list(str()), from: str(), daily_cap: int(0), sent_today: int(0) },
          { description: 'read-only: the mail providers\' status', ...open },
        ),
        owner_email: nullable(str()),
        public_url: str({ readOnly: true, description: 'read-only, from FARSIGHT_PUBLIC_URL' }),
        retention: { ...RETENTION, description: 'days kept, applied by the nightly retention' },
        allow_private_targets: bool({ default: DEFAULT_SETTINGS.allow_private_targets, description: 'changed only by an owner session' }),
      },
      { required: ['defaults', 'tz_offset_min', 'email', 'owner_email', 'public_url', 'retention'], ...open },
    ),
    SettingsPatch: anyObject({ description: 'the settings fields to change; the keys a PATCH accepts are listed in the user docs under /docs; an unknown or out-of-range key is 422 naming it' }),
    Export: obj(
      {
        service_export: oneOfValues([1], { description: 'format number' }),
        exported_at: time(),
        monitors: list(anyObject({ description: 'a monitor body, matched by slug on import' })),
        channels: list(anyObject({ description: 'a channel body, matched by name on import' })),
        status_page: anyObject(),
      },
      { description: 'Secrets are masked unless `?secrets=1`; keys in a stable order, so two exports of the same setup diff cleanly.', ...open },
    ),
    Import: obj(
      {
        service_export: oneOfValues([1]),
        exported_at: time(),
        monitors: list(anyObject()),
        channels: list(anyObject()),
        status_page: anyObject(),
        dry_run: bool({ default: true }),
      },
      { required: ['service_export', 'monitors', 'channels', 'status_page'], description: 'an export document plus dry_run; all or nothing when not a dry run', ...open },
    ),
    ImportAnswer: obj({ monitors: ITEM_RESULTS, channels: ITEM_RESULTS }, { description: 'like bulk, per section', ...open }),
    Diagnostics: anyObject({
      description:
        'version, uptime, memory, monitor count, checks per minute, database and WAL size, writer state, scheduler lateness, ' +
        'canary state, outbox counts, email counts, an egress estimate, recent logged problems (the field names are listed in the user docs under /docs)',
    }),
  };
}

export const EXPORT_QUERY: QueryParam[] = [{ name: 'secrets', schema: oneOfValues(['1']), description: '`1` answers secrets unmasked' }];
