/**
 * Check history, series and uptime answers (history.service.ts, stats.service.ts) and their
 * queries, for the route description. Pure.
 */
import {
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
  uptime: pct(),
});

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
    },
    required: base.required,
  };
})();

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function historySchemas(): SchemaSet {
  return {
    CheckItem: CHECK_ITEM,
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
      uptime: described(pct(), 'over the whole span; null without data'),
      days: list(
        obj({
          date: str({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD in the configured time zone' }),
          uptime: pct(),
          down_ms: int(0),
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

export const HISTORY_QUERIES: Record<'monitorChecks' | 'checks' | 'series' | 'uptime', QueryParam[]> = {
  monitorChecks: [
    ...pageQuery(
      DEFAULT_LIMIT,
      'epoch milliseconds: checks before this moment (the `next_cursor` of the previous page)',
    ),
    OUTCOME_QUERY,
    {
      name: 'location',
      schema: str({ maxLength: 40 }),
      description: "one probe location's results (docs/agents.md); absent or `local`: the service's own checks",
    },
  ],
  checks: [
    ...pageQuery(CHECKS_LIMIT, 'the `next_cursor` of the previous page, shape `<epoch_ms>:<number>`'),
    { ...OUTCOME_QUERY, description: 'across all monitors only `down`; any outcome together with monitor_id' },
    { name: 'monitor_id', schema: int(1), description: "one monitor's checks" },
  ],
  series: [
    { name: 'range', schema: oneOfValues(SERIES_RANGES, { default: '24h' }), description: 'the span of the series' },
  ],
  uptime: [
    {
      name: 'days',
      schema: int(UPTIME_DAYS.min, UPTIME_DAYS.max, { default: UPTIME_DAYS.default }),
      description: 'days to answer, up to 400',
    },
  ],
};
