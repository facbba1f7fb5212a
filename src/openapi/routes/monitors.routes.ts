/** Spec "Endpoints → Monitors". */
import { ref, str } from '../../common/validation/common.schema';
import { MONITOR_REF_PATTERN, SLUG_PATTERN } from '../../common/validation/ids';
import { HISTORY_QUERIES } from '../../history/history.schema';
import { MONITOR_LIST_QUERY } from '../../monitors/monitor.schema';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const tag = 'Monitors';
const write = { scope: 'write' } as const;
const read = { scope: 'read' } as const;
const ID = { id: { schema: str({ pattern: MONITOR_REF_PATTERN }), description: 'the monitor\'s id, or `slug:<slug>`' } };
const EMPTY = { schema: ref('Empty'), required: false, description: 'optional empty object' };
const monitor = (description: string) => ({ description, schema: ref('Monitor') });

export const MONITOR_ROUTES: RouteDoc[] = [
  { method: 'get', path: `${API}/monitors`, id: 'listMonitors', tag, summary: 'List monitors with state and stats', access: read, query: MONITOR_LIST_QUERY, answers: { 200: { description: 'monitors, newest first', schema: ref('MonitorList') } } },
  {
    method: 'post', path: `${API}/monitors`, id: 'createMonitor', tag, summary: 'Create a monitor', access: write,
    body: { schema: ref('MonitorInput') },
    answers: { 201: monitor('the monitor; a heartbeat monitor\'s answer includes `heartbeat_url` once') },
  },
  { method: 'get', path: `${API}/monitors/{id}`, id: 'getMonitor', tag, summary: 'Read a monitor', access: read, params: ID, answers: { 200: monitor('the monitor') } },
  {
    method: 'patch', path: `${API}/monitors/{id}`, id: 'updateMonitor', tag, summary: 'Change a monitor', access: write, params: ID,
    description: 'Only the fields to change; kind settings merge field by field; `null` clears. Masked secrets (`********`) keep the stored value only while the target stays the same.',
    body: { schema: ref('MonitorPatch') }, answers: { 200: monitor('the monitor') },
  },
  { method: 'delete', path: `${API}/monitors/{id}`, id: 'deleteMonitor', tag, summary: 'Delete a monitor and its history', access: { ...write, stepUp: true }, params: ID, answers: { 200: { description: 'deleted', schema: ref('Ok') } } },
  {
    method: 'put', path: `${API}/monitors/by-slug/{slug}`, id: 'putMonitorBySlug', tag, summary: 'Create or replace a monitor by slug', access: write,
    params: { slug: { schema: str({ pattern: SLUG_PATTERN }), description: 'the slug' } },
    description: 'Idempotent: the same body twice leaves one monitor.', body: { schema: ref('MonitorInput') },
    answers: { 200: monitor('replaced'), 201: monitor('created') },
  },
  { method: 'post', path: `${API}/monitors/{id}/pause`, id: 'pauseMonitor', tag, summary: 'Pause: no checks, no alerts', access: write, params: ID, body: EMPTY, answers: { 200: monitor('the monitor') } },
  { method: 'post', path: `${API}/monitors/{id}/resume`, id: 'resumeMonitor', tag, summary: 'Resume checks', access: write, params: ID, body: EMPTY, answers: { 200: monitor('the monitor; status unknown until the first check') } },
  { method: 'post', path: `${API}/monitors/{id}/mute`, id: 'muteMonitor', tag, summary: 'Hold alerts back for a while', access: write, params: ID, body: { schema: ref('Mute') }, answers: { 200: monitor('the monitor') } },
  { method: 'post', path: `${API}/monitors/{id}/unmute`, id: 'unmuteMonitor', tag, summary: 'Send alerts again', access: write, params: ID, body: EMPTY, answers: { 200: monitor('the monitor') } },
  { method: 'post', path: `${API}/monitors/{id}/check`, id: 'checkMonitorNow', tag, summary: 'Check now', description: 'The result is stored and fed to the state machine like a scheduled one.', access: write, params: ID, body: EMPTY, answers: { 200: { description: 'the check result', schema: ref('CheckResult') } } },
  { method: 'post', path: `${API}/monitors/test`, id: 'testMonitor', tag, summary: 'Run an unsaved monitor once', description: 'Changes nothing.', access: write, body: { schema: ref('MonitorInput') }, answers: { 200: { description: 'the check result', schema: ref('CheckResult') } } },
  {
    method: 'post', path: `${API}/monitors/bulk`, id: 'bulkMonitors', tag, summary: 'Create or replace many monitors, matched by slug', access: write,
    description: 'Valid items are applied even when others have errors, in one transaction; at most 1,000 items; bodies up to 10 MB. `dry_run` answers what a real run would do.',
    body: { schema: ref('BulkInput') }, answers: { 200: { description: 'what was (or would be) done', schema: ref('BulkAnswer') } },
  },
  { method: 'post', path: `${API}/monitors/{id}/heartbeat-token`, id: 'newHeartbeatToken', tag, summary: 'A new secret ping URL for a heartbeat monitor', description: 'The old URL stops working.', access: write, params: ID, body: EMPTY, answers: { 200: { description: 'the new URL (shown once)', schema: ref('HeartbeatUrl') } } },
  { method: 'get', path: `${API}/monitors/{id}/checks`, id: 'listMonitorChecks', tag, summary: 'A monitor\'s check results, newest first', access: read, params: ID, query: HISTORY_QUERIES.monitorChecks, answers: { 200: { description: 'check results', schema: ref('CheckList') } } },
  {
    method: 'get', path: `${API}/checks`, id: 'listChecks', tag, summary: 'Every monitor\'s check results, newest first', access: read, query: HISTORY_QUERIES.checks,
    description: 'Newest first by time, then monitor; includes results not yet written.', answers: { 200: { description: 'check results, each with `monitor_id`', schema: ref('CheckList') } },
  },
  { method: 'get', path: `${API}/monitors/{id}/series`, id: 'getMonitorSeries', tag, summary: 'Chart series', access: read, params: ID, query: HISTORY_QUERIES.series, answers: { 200: { description: 'the series', schema: ref('Series') } } },
  { method: 'get', path: `${API}/monitors/{id}/uptime`, id: 'getMonitorUptime', tag, summary: 'Uptime per day', access: read, params: ID, query: HISTORY_QUERIES.uptime, answers: { 200: { description: 'uptime per local day, oldest first', schema: ref('Uptime') } } },
  { method: 'get', path: `${API}/summary`, id: 'getSummary', tag, summary: 'Counts by status, open incidents, blind period, check rate', access: read, answers: { 200: { description: 'the summary', schema: ref('Summary') } } },
];

