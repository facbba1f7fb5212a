/** GET /events: its items (timeline.ts) and query, for the route description. Pure. */
import {
  anyObject,
  described,
  int,
  nullable,
  obj,
  page,
  pageQuery,
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
} from '../common/validation/common.schema';
import { EVENT_KINDS } from './event-kinds';

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function timelineSchemas(): SchemaSet {
  return {
    TimelineItem: obj(
      {
        id: int(1),
        at: time(),
        kind: {
          enum: Object.keys(EVENT_KINDS),
          description: Object.entries(EVENT_KINDS)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; '),
        },
        monitor_id: nullable(int(1)),
        incident_id: described(nullable(int(1)), 'the incident whose timeline the line is part of'),
        actor: described(nullable(str()), '`owner`, `key:<name>` or `system`'),
        text: str(),
        data: described(nullable(anyObject()), 'details by kind (docs/events.md)'),
      },
      { description: 'One line of the timeline (docs/events.md).' },
    ),
    TimelineList: page(ref('TimelineItem')),
  };
}

export const TIMELINE_QUERY: QueryParam[] = [
  {
    name: 'kind',
    schema: str(),
    description: `one kind, or several comma separated: ${Object.keys(EVENT_KINDS).join(', ')}`,
  },
  { name: 'monitor_id', schema: int(1), description: "one monitor's lines" },
  ...pageQuery(),
];
