/** Spec "Endpoints → Settings, export, import, diagnostics, events" (with the stream and API keys). */
import { pageQuery, ref } from '../../common/validation/common.schema';
import { TIMELINE_QUERY } from '../../events/timeline.schema';
import { EXPORT_QUERY, KUMA_QUERY } from '../schemas/system.schema';
import { KUMA_UPLOAD_MAX } from '../../system/kuma/kuma-import.service';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const read = { scope: 'read' } as const;

export const SYSTEM_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: `${API}/settings`,
    id: 'getSettings',
    tag: 'System',
    summary: 'The service settings',
    access: read,
    answers: { 200: { description: 'the settings object', schema: ref('Settings') } },
  },
  {
    method: 'patch',
    path: `${API}/settings`,
    id: 'updateSettings',
    tag: 'System',
    summary: 'Change the service settings',
    access: { scope: 'admin', stepUp: true },
    accessNote: '`allow_private_targets` only by an owner session.',
    description: 'Each change is a timeline line with who made it.',
    body: { schema: ref('SettingsPatch') },
    answers: { 200: { description: 'the settings object', schema: ref('Settings') } },
  },
  {
    method: 'get',
    path: `${API}/export`,
    id: 'exportSetup',
    tag: 'System',
    summary: 'Export monitors, channels and the status page',
    access: { scope: 'admin', stepUp: true },
    query: EXPORT_QUERY,
    answers: { 200: { description: 'the export document', schema: ref('Export') } },
  },
  {
    method: 'post',
    path: `${API}/import`,
    id: 'importSetup',
    tag: 'System',
    summary: 'Import an export document',
    access: { scope: 'admin', stepUp: true },
    description:
      'Monitors are matched by slug, channels by name. `dry_run` defaults to true; a real run is all or nothing. Bodies up to 10 MB.',
    body: { schema: ref('Import') },
    answers: { 200: { description: 'what was (or would be) done, like bulk', schema: ref('ImportAnswer') } },
  },
  {
    method: 'post',
    path: `${API}/import/kuma`,
    id: 'importKuma',
    tag: 'System',
    summary: 'Import an Uptime Kuma database or backup',
    access: { scope: 'admin', stepUp: true },
    description: `The body is the file itself: kuma.db (Kuma 1.23 or 2.x) or a Kuma 1.x JSON backup, up to ${KUMA_UPLOAD_MAX / 1024 / 1024} MB. A dry run unless \`apply=true\`; items this service cannot take are skipped with their reason and the rest is written in one transaction (docs/import-kuma.md).`,
    query: KUMA_QUERY,
    body: { type: 'application/octet-stream', schema: { type: 'string', format: 'binary' } },
    answers: { 200: { description: 'what was (or would be) done to each Kuma item', schema: ref('KumaReport') } },
    errors: [409],
    extra:
      'the interface extensions (section 7, coming from Uptime Kuma): the dashboard and `farsight import-kuma` send the file here.',
  },
  {
    method: 'get',
    path: `${API}/diagnostics`,
    id: 'getDiagnostics',
    tag: 'System',
    summary: 'How the service is doing',
    access: read,
    answers: { 200: { description: 'diagnostics', schema: ref('Diagnostics') } },
  },
  {
    method: 'get',
    path: `${API}/events`,
    id: 'listEvents',
    tag: 'System',
    summary: 'The timeline, newest first',
    access: read,
    query: TIMELINE_QUERY,
    answers: { 200: { description: 'timeline lines', schema: ref('TimelineList') } },
  },
  {
    method: 'get',
    path: `${API}/stream`,
    id: 'openStream',
    tag: 'System',
    summary: 'Live events (Server-Sent Events)',
    access: read,
    description:
      "Events `hello` {version}, `check` (with `location`), `state` {monitor_id, state} (the monitor answer's `state`, `state.locations` included: sent on a transition and when a location's row changes), `incident`, `blind`, `path`, `monitors`; a comment line every 25 s keeps the connection open; resumable with `Last-Event-ID` (docs/stream.md).",
    answers: {
      200: { description: 'an event stream that stays open', type: 'text/event-stream', schema: { type: 'string' } },
    },
  },
  {
    method: 'get',
    path: `${API}/keys`,
    id: 'listKeys',
    tag: 'API keys',
    summary: 'List API keys',
    access: { scope: 'admin' },
    query: pageQuery(),
    answers: { 200: { description: 'keys (never the key itself)', schema: ref('ApiKeyList') } },
  },
  {
    method: 'post',
    path: `${API}/keys`,
    id: 'createKey',
    tag: 'API keys',
    summary: 'Create an API key',
    access: { scope: 'admin', sessionOnly: true, stepUp: true },
    body: { schema: ref('CreateKey') },
    answers: { 201: { description: 'the key record plus `key`, shown once', schema: ref('ApiKeyCreated') } },
  },
  {
    method: 'delete',
    path: `${API}/keys/{id}`,
    id: 'revokeKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    access: { scope: 'admin', sessionOnly: true, stepUp: true },
    answers: { 200: { description: 'revoked', schema: ref('Ok') } },
  },
];
