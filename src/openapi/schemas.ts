/** Every named schema of the document (`components.schemas`), gathered from the modules' `*.schema.ts`. */
import { CHANNEL_SCHEMAS } from '../channels/channel.schema';
import { COMMON_SCHEMAS, SchemaSet } from '../common/common.schema';
import { TIMELINE_SCHEMAS } from '../events/timeline.schema';
import { HISTORY_SCHEMAS } from '../history/history.schema';
import { INCIDENT_SCHEMAS } from '../incidents/incident.schema';
import { MONITOR_SCHEMAS } from '../monitors/monitor.schema';
import { CHECK_SCHEMAS } from '../probes/check-result.schema';
import { AUTH_SCHEMAS } from './schemas/auth.schema';
import { STATUS_PAGE_SCHEMAS } from './schemas/status-page.schema';
import { SYSTEM_SCHEMAS } from './schemas/system.schema';

const SETS: SchemaSet[] = [
  COMMON_SCHEMAS, CHECK_SCHEMAS, MONITOR_SCHEMAS, HISTORY_SCHEMAS, INCIDENT_SCHEMAS, TIMELINE_SCHEMAS, CHANNEL_SCHEMAS,
  STATUS_PAGE_SCHEMAS, SYSTEM_SCHEMAS, AUTH_SCHEMAS,
];

/** All sets merged; a name defined twice throws (two modules must not fight over one name). */
export function allSchemas(): SchemaSet {
  const out: SchemaSet = {};
  for (const set of SETS) {
    for (const [name, schema] of Object.entries(set)) {
      if (name in out) throw new Error(`schema ${name} is defined twice`);
      out[name] = schema;
    }
  }
  return out;
}
