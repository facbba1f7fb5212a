/** The incident routes' answers (events/incident.ts, incidents.service.ts) and PATCH body (incident-input.ts). Pure. */
import {
  bool,
  described,
  int,
  list,
  nullable,
  obj,
  oneOfValues,
  pageQuery,
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
  page,
} from '../common/validation/common.schema';
import { END_REASONS } from '../events/incident';
import { INCIDENT_STATES, NOTE_MAX } from './incident-input';
import { TEXT_RULE_WORDS } from '../common/validation/text-rules';

const INCIDENT_PROPERTIES = {
  id: int(1),
  monitor_id: int(1),
  monitor_name: str({ description: 'kept after the monitor is deleted' }),
  started_at: time({ description: 'the first failed check of the run that was confirmed Down' }),
  ended_at: described(nullable(time()), 'null while open'),
  duration_ms: int(0, undefined, { description: 'grows while open' }),
  cause: described(nullable(ref('ErrorObject')), 'the error that opened it'),
  last_error: nullable(ref('ErrorObject')),
  fails: int(0, undefined, { description: 'failed checks' }),
  acknowledged_at: nullable(time()),
  note: nullable(str({ maxLength: NOTE_MAX })),
  end_reason: oneOfValues([...END_REASONS, null], { description: 'null while open' }),
};
/** In the answers of the incident routes (the stream's incident events leave it out). */
const AFFECTED = list(
  obj(
    {
      monitor_id: int(1),
      name: str({ description: "the monitor's name when it joined" }),
      since: time({ description: 'when it went down and joined' }),
      until: described(nullable(time()), 'when it left: it recovered, or got its own incident when this one ended'),
    },
    { required: ['monitor_id', 'name', 'since', 'until'] },
  ),
  {
    description:
      'monitors that went down while this monitor, which they depend on, was down: they joined this incident instead of opening their own (docs/dependencies.md)',
  },
);
const REQUIRED = Object.keys(INCIDENT_PROPERTIES);

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function incidentSchemas(): SchemaSet {
  return {
    Incident: obj(
      { ...INCIDENT_PROPERTIES, affected: AFFECTED },
      { required: REQUIRED, description: 'One outage of one monitor (docs/incidents.md).' },
    ),
    IncidentDetail: obj({
      ...INCIDENT_PROPERTIES,
      affected: AFFECTED,
      checks: list(ref('CheckResult'), {
        maxItems: 200,
        description: 'its failed checks, the latest 200, newest first',
      }),
      timeline: list(obj({ at: time(), kind: str(), text: str() }), { description: 'in time order' }),
    }),
    IncidentList: page(ref('Incident')),
    IncidentPatch: obj(
      {
        acknowledged: bool({ description: 'true acknowledges (a second time keeps the first time); false withdraws' }),
        note: nullable(
          str({ maxLength: NOTE_MAX, description: `null, empty or blank clears it; ${TEXT_RULE_WORDS.lines}` }),
        ),
      },
      { required: [] },
    ),
  };
}

export const INCIDENT_LIST_QUERY: QueryParam[] = [
  { name: 'state', schema: oneOfValues(INCIDENT_STATES, { default: 'all' }), description: 'open, closed or all' },
  {
    name: 'monitor_id',
    schema: int(1),
    description: "one monitor's incidents (a deleted monitor's id still finds them)",
  },
  ...pageQuery(),
];
