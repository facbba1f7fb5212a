/** The maintenance routes' bodies and answers (window-input.ts, window-answer.ts) and list query. Pure. */
import {
  bool,
  described,
  int,
  list,
  nullable,
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
import { TEXT_RULE_WORDS } from '../common/validation/text-rules';
import { WEEKDAYS } from '../engine/maintenance/schedule';
import { DURATION_MIN } from '../engine/maintenance/schedule-input';
import { ANNOUNCE_H, DESCRIPTION_MAX, MONITORS_MAX, TITLE_MAX, WINDOW_STATES } from './window-input';

const HHMM = str({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'wall-clock time in `tz`, 24-hour' });
const DAY = (what: string) =>
  described(nullable(str({ format: 'date' })), `YYYY-MM-DD in \`tz\`, inclusive: ${what}; null: no bound`);
const RECURRING = {
  start_time: HHMM,
  duration_min: int(DURATION_MIN.min, DURATION_MIN.max, { description: 'elapsed minutes (a week at most)' }),
  tz: str({ description: 'IANA time zone name (Europe/Berlin); daylight-saving changes are followed' }),
  from: DAY('the first day an occurrence may start'),
  until: DAY('the last day an occurrence may start'),
};
const SPAN = nullable(obj({ start: time(), end: described(nullable(time()), 'null: started by hand, until stopped') }));

const SCHEDULE = {
  oneOf: [
    obj(
      { kind: oneOfValues(['once']), start: time(), end: time({ description: 'after start, at most 31 days later' }) },
      { description: 'one window' },
    ),
    obj(
      {
        kind: oneOfValues(['weekly']),
        days: list(oneOfValues(WEEKDAYS), { minItems: 1, maxItems: 7, uniqueItems: true }),
        ...RECURRING,
      },
      { required: ['kind', 'days', 'start_time', 'duration_min', 'tz'] },
    ),
    obj(
      {
        kind: oneOfValues(['monthly']),
        day: described(
          { type: 'integer', minimum: -1, maximum: 31, not: { const: 0 } },
          '1-31, or -1 for the last day; a month without the day has no occurrence',
        ),
        ...RECURRING,
      },
      { required: ['kind', 'day', 'start_time', 'duration_min', 'tz'] },
    ),
    obj({ kind: oneOfValues(['manual']) }, { description: 'active only while started by hand' }),
  ],
  description: 'When the window is active (docs/maintenance.md, "Schedules").',
};

const FIELDS = {
  title: str({ minLength: 1, maxLength: TITLE_MAX, description: TEXT_RULE_WORDS.line }),
  description: nullable(str({ maxLength: DESCRIPTION_MAX, description: `Markdown; ${TEXT_RULE_WORDS.lines}` })),
  monitors: described(nullable(list(int(1), { maxItems: MONITORS_MAX })), 'monitor ids; null: every monitor'),
  schedule: SCHEDULE,
  public: bool({ description: 'shown on the status page (only public names of public monitors)' }),
  announce_h: int(ANNOUNCE_H.min, ANNOUNCE_H.max, {
    description: 'hours before a start that the status page announces it',
  }),
};

export function maintenanceSchemas(): SchemaSet {
  return {
    MaintenanceWindow: obj(
      {
        id: int(1),
        ...FIELDS,
        state: oneOfValues(WINDOW_STATES),
        current: described(SPAN, 'the span active now'),
        next: described(SPAN, 'the next scheduled span that starts after now'),
        created_at: time(),
        updated_at: time(),
      },
      { description: 'A maintenance window (docs/maintenance.md).' },
    ),
    MaintenanceWindowList: page(ref('MaintenanceWindow')),
    MaintenanceWindowCreate: obj(FIELDS, { required: ['title', 'schedule'] }),
    MaintenanceWindowPatch: obj(FIELDS, { required: [] }),
    MaintenancePreview: obj({ schedule: SCHEDULE }),
    MaintenanceOccurrences: obj({ occurrences: list(obj({ start: time(), end: time() }), { maxItems: 5 }) }),
    MaintenanceStart: obj(
      { end: described(nullable(time()), 'in the future; absent or null: until stopped') },
      { required: [] },
    ),
  };
}

export const MAINTENANCE_LIST_QUERY: QueryParam[] = [
  { name: 'state', schema: oneOfValues(WINDOW_STATES), description: 'only windows in this state now' },
  ...pageQuery(),
];
