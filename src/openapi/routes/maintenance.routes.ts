import { ref } from '../../common/validation/common.schema';
import { MAINTENANCE_LIST_QUERY } from '../../maintenance/maintenance.schema';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const read = { scope: 'read' } as const;
const write = { scope: 'write' } as const;
const tag = 'Maintenance';
const extra = 'maintenance windows (the extensions of the specification, section 1; docs/maintenance.md).';
const window = (description: string) => ({ description, schema: ref('MaintenanceWindow') });

export const MAINTENANCE_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: `${API}/maintenance`,
    id: 'listMaintenance',
    tag,
    summary: 'List maintenance windows, newest first',
    access: read,
    query: MAINTENANCE_LIST_QUERY,
    answers: { 200: { description: 'windows', schema: ref('MaintenanceWindowList') } },
    extra,
  },
  {
    method: 'post',
    path: `${API}/maintenance`,
    id: 'createMaintenance',
    tag,
    summary: 'Create a maintenance window',
    description: 'Unknown monitor ids, an unknown zone, a once window longer than 31 days: 422 naming the field.',
    access: write,
    body: { schema: ref('MaintenanceWindowCreate') },
    answers: { 201: window('the window') },
    extra,
  },
  {
    method: 'post',
    path: `${API}/maintenance/preview`,
    id: 'previewMaintenance',
    tag,
    summary: 'The next five occurrences of a schedule, from now',
    description:
      "Nothing is stored: the dashboard's schedule editor shows what a schedule would do before it is saved.",
    access: read,
    body: { schema: ref('MaintenancePreview') },
    answers: { 200: { description: 'occurrences', schema: ref('MaintenanceOccurrences') } },
    extra: "the dashboard's schedule editor previews the next five occurrences (docs/maintenance.md).",
  },
  {
    method: 'get',
    path: `${API}/maintenance/{id}`,
    id: 'getMaintenance',
    tag,
    summary: 'Read a maintenance window',
    access: read,
    answers: { 200: window('the window') },
    extra,
  },
  {
    method: 'patch',
    path: `${API}/maintenance/{id}`,
    id: 'updateMaintenance',
    tag,
    summary: 'Change a maintenance window (only the fields sent)',
    access: write,
    body: { schema: ref('MaintenanceWindowPatch') },
    answers: { 200: window('the window') },
    extra,
  },
  {
    method: 'delete',
    path: `${API}/maintenance/{id}`,
    id: 'deleteMaintenance',
    tag,
    summary: 'Delete a maintenance window (an active one ends now)',
    access: write,
    answers: { 204: { description: 'deleted' } },
    extra,
  },
  {
    method: 'post',
    path: `${API}/maintenance/{id}/start`,
    id: 'startMaintenance',
    tag,
    summary: 'Start a window now, until `end` or until stopped',
    access: write,
    body: { schema: ref('MaintenanceStart'), required: false },
    answers: { 200: window('the window, active') },
    extra,
  },
  {
    method: 'post',
    path: `${API}/maintenance/{id}/stop`,
    id: 'stopMaintenance',
    tag,
    summary: 'End a window now (a scheduled occurrence running now stays over)',
    access: write,
    body: { schema: ref('Empty'), required: false },
    answers: { 200: window('the window, ended') },
    extra,
  },
];
