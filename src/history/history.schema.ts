/**
 * Check history, series and uptime answers (history.service.ts, stats.service.ts) and their
 * queries, for the route description. Pure.
 */
import {
  bool,
  described,
  epochMs,
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
} from '../common/validation/common.schema';
import { DEFAULT_LIMIT } from '../common/http/paging';
import { CHECK_ERROR_CODES } from '../probes/check-result';
import { CHECK_RESULT, OUTCOMES } from '../probes/check-result.schema';
import { CHECKS_LIMIT } from './check-cursor';
import { SERIES_RANGES, UPTIME_DAYS } from './stats.service';

const msOrNull = (): JsonSchema => nullable(int(0));
const pct = (): JsonSchema => nullable(num({ minimum: 0, maximum: 100 }));

const RAW_POINT = obj({
  t_ms: epochMs(),
  outcome: oneOfValues(OUTCOMES),
  latency_ms: msOrNull(),
  dns_ms: msOrNull(),
  connect_ms: msOrNull(),
  tls_ms: msOrNull(),
  ttfb_ms: msOrNull(),
  status: nullable(int()),
  error_code: oneOfValues([...CHECK_ERROR_CODES, null]),
  maintenance: bool({ description: 'made while a maintenance window held the monitor: not in uptime' }),
});

const AGG_POINT = obj({
  t_ms: epochMs({ description: 'start of the hour or (local) day' }),
  avg_ms: nullable(num({ minimum: 0 })),
  p50_ms: nullable(num({ minimum: 0 })),
  p95_ms: nullable(num({ minimum: 0 })),
  min_ms: msOrNull(),
  max_ms: msOrNull(),
  up: int(0),
  down: int(0),
  slow: int(0),
  unknown: int(0),
  maintenance: int(0, undefined, {
    description: 'checks made while a maintenance window held the monitor (in none of up, down, slow, unknown)',
  }),
  maintenance_ms: int(0, undefined, { description: 'time in maintenance: in neither side of uptime' }),
  maintenance_pct: described(pct(), "maintenance's share of the time with data; null without data"),
  uptime: described(pct(), 'up / (up + down) time, maintenance left out; null without such time'),
});

/** A monitor answer's `stats` (monitor-stats.ts), the monitor's own or one location's. */
const STATS = obj(
  {
    uptime_24h: nullable(num({ minimum: 0, maximum: 100 })),
    uptime_7d: nullable(num({ minimum: 0, maximum: 100 })),
    uptime_30d: nullable(num({ minimum: 0, maximum: 100 })),
    p50_ms_24h: nullable(num({ minimum: 0 })),
    p95_ms_24h: nullable(num({ minimum: 0 })),
    spark: list(
      obj({ t_ms: epochMs(), avg_ms: nullable(num({ minimum: 0 })), worst: oneOfValues([...OUTCOMES, null]) }),
      { minItems: 24, maxItems: 24, description: '24 hourly points, oldest first' },
    ),
  },
  { description: 'Percentages are null without data.' },
);

const CHECK_ITEM = (() => {
  const base = CHECK_RESULT as { properties: Record<string, JsonSchema>; required: string[] };
  return {
    ...CHECK_RESULT,
    properties: {
      monitor_id: int(1, undefined, { description: 'in GET /checks only' }),
      location: str({
        description: 'in GET /monitors/{id}/checks only: the probe location that checked (docs/agents.md)',
      }),
      ...base.properties,
      maintenance_window_id: nullable(
        int(1, undefined, { description: 'the maintenance window that held the monitor at this check: not in uptime' }),
      ),
    },
    required: [...base.required, 'maintenance_window_id'],
  };
})();

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function historySchemas(): SchemaSet {
  return {
    CheckItem: CHECK_ITEM,
    MonitorStats: STATS,
    MonitorStatsAnswer: obj(
      {
        location: str({
          description: "`local` (the service's own checks) or the probe location's name (docs/agents.md)",
        }),
        ...(STATS as { properties: Record<string, JsonSchema> }).properties,
      },
      {
        description:
          'GET /monitors/{id}/stats: the figures of `stats`, and whose they are. Percentages are null without data.',
      },
    ),
    CheckList: page(ref('CheckItem')),
    Series: {
      ...obj({
        range: oneOfValues(SERIES_RANGES),
        resolution: oneOfValues(['raw', 'hour', 'day'], {
          description: 'raw for 1h and 24h, hour for 7d and 30d, day for 90d',
        }),
        points: {
          type: 'array',
          items: { anyOf: [RAW_POINT, AGG_POINT] },
          description: 'oldest first; raw points, or one per hour or day',
        },
      }),
    },
    Uptime: obj({
      uptime: described(pct(), 'over the whole span, time in maintenance left out; null without data'),
      days: list(
        obj({
          date: str({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD in the configured time zone' }),
          uptime: described(pct(), 'null without up or down time (a day all in maintenance too)'),
          down_ms: int(0),
          maintenance_ms: int(0, undefined, { description: 'time in maintenance, left out of uptime' }),
          checks: int(0),
        }),
        { description: 'oldest first' },
      ),
    }),
  };
}

const OUTCOME_QUERY: QueryParam = {
  name: 'outcome',
  schema: oneOfValues(OUTCOMES),
  description: 'only checks with this outcome',
};

/** `?location=` of a monitor's history routes (locations/location-query.ts). */
const LOCATION_QUERY = (what: string): QueryParam => ({
  name: 'location',
  schema: str({ maxLength: 40 }),
  description: `${what} (docs/agents.md); absent or \`local\`: the service's own checks. Not a location: 422 on \`location\``,
});

export const HISTORY_QUERIES: Record<'monitorChecks' | 'checks' | 'series' | 'uptime' | 'stats', QueryParam[]> = {
  monitorChecks: [
    ...pageQuery(
      DEFAULT_LIMIT,
      'epoch milliseconds: checks before this moment (the `next_cursor` of the previous page)',
    ),
    OUTCOME_QUERY,
    LOCATION_QUERY("one probe location's results"),
  ],
  checks: [
    ...pageQuery(CHECKS_LIMIT, 'the `next_cursor` of the previous page, shape `<epoch_ms>:<number>`'),
    { ...OUTCOME_QUERY, description: 'across all monitors only `down`; any outcome together with monitor_id' },
    { name: 'monitor_id', schema: int(1), description: "one monitor's checks" },
  ],
  series: [
    LOCATION_QUERY("one probe location's series: its raw results (1h, 24h) or its hourly and daily rollups"),
    { name: 'range', schema: oneOfValues(SERIES_RANGES, { default: '24h' }), description: 'the span of the series' },
  ],
  uptime: [
    {
      name: 'days',
      schema: int(UPTIME_DAYS.min, UPTIME_DAYS.max, { default: UPTIME_DAYS.default }),
      description: 'days to answer, up to 400',
    },
    LOCATION_QUERY("one probe location's uptime days"),
  ],
  stats: [LOCATION_QUERY("one probe location's stats")],
};
