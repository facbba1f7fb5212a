/** Every named schema of the document (`components.schemas`), gathered from the modules' `*.schema.ts`. */
import { channelSchemas } from '../channels/channel.schema';
import { commonSchemas, SchemaSet } from '../common/validation/common.schema';
import { timelineSchemas } from '../events/timeline.schema';
import { historySchemas } from '../history/history.schema';
import { incidentSchemas } from '../incidents/incident.schema';
import { maintenanceSchemas } from '../maintenance/maintenance.schema';
import { locationSchemas } from '../locations/location.schema';
import { monitorSchemas } from '../monitors/monitor.schema';
import { checkSchemas } from '../probes/check-result.schema';
import { authSchemas } from './schemas/auth.schema';
import { statusPageSchemas } from './schemas/status-page.schema';
import { systemSchemas } from './schemas/system.schema';

const SETS: (() => SchemaSet)[] = [
  commonSchemas,
  checkSchemas,
  monitorSchemas,
  historySchemas,
  incidentSchemas,
  maintenanceSchemas,
  locationSchemas,
  timelineSchemas,
  channelSchemas,
  statusPageSchemas,
  systemSchemas,
  authSchemas,
];

/** All sets merged; a name defined twice throws (two modules must not fight over one name). */
export function allSchemas(): SchemaSet {
  const out: SchemaSet = {};
  for (const set of SETS) {
    for (const [name, schema] of Object.entries(set())) {
      if (name in out) throw new Error(`schema ${name} is defined twice`);
      out[name] = schema;
    }
  }
  return out;
}
