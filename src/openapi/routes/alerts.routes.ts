/** Spec "Endpoints → Incidents" and "Channels and deliveries". */
import { pageQuery, ref } from '../../common/validation/common.schema';
import { DELIVERY_QUERY } from '../../channels/channel.schema';
import { INCIDENT_LIST_QUERY } from '../../incidents/incident.schema';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const read = { scope: 'read' } as const;
const write = { scope: 'write' } as const;
const admin = { scope: 'admin', stepUp: true } as const;
const channel = (description: string) => ({ description, schema: ref('Channel') });

export const ALERT_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: `${API}/incidents`,
    id: 'listIncidents',
    tag: 'Incidents',
    summary: 'List incidents, newest first',
    access: read,
    query: INCIDENT_LIST_QUERY,
    answers: { 200: { description: 'incidents', schema: ref('IncidentList') } },
  },
  {
    method: 'get',
    path: `${API}/incidents/{id}`,
    id: 'getIncident',
    tag: 'Incidents',
    summary: 'An incident with its failed checks and timeline',
    access: read,
    answers: { 200: { description: 'the incident', schema: ref('IncidentDetail') } },
  },
  {
    method: 'patch',
    path: `${API}/incidents/{id}`,
    id: 'updateIncident',
    tag: 'Incidents',
    summary: 'Acknowledge an incident or set its note',
    access: write,
    description: 'Each change is a timeline line saying who made it.',
    body: { schema: ref('IncidentPatch') },
    answers: { 200: { description: 'the incident', schema: ref('Incident') } },
  },
  {
    method: 'get',
    path: `${API}/channels`,
    id: 'listChannels',
    tag: 'Alerts',
    summary: 'List alert channels (secrets masked)',
    access: read,
    query: pageQuery(),
    answers: { 200: { description: 'channels', schema: ref('ChannelList') } },
  },
  {
    method: 'get',
    path: `${API}/channels/{id}`,
    id: 'getChannel',
    tag: 'Alerts',
    summary: 'Read a channel',
    access: read,
    answers: { 200: channel('the channel') },
  },
  {
    method: 'post',
    path: `${API}/channels`,
    id: 'createChannel',
    tag: 'Alerts',
    summary: 'Create an alert channel',
    access: admin,
    body: { schema: ref('ChannelInput') },
    answers: { 201: channel('the channel, secrets masked') },
  },
  {
    method: 'patch',
    path: `${API}/channels/{id}`,
    id: 'updateChannel',
    tag: 'Alerts',
    summary: 'Change a channel',
    access: write,
    accessNote: '`config` needs scope `admin` and, for a session, a sign-in within 12 hours (403 `step_up` otherwise).',
    body: { schema: ref('ChannelPatch') },
    answers: { 200: channel('the channel') },
  },
  {
    method: 'delete',
    path: `${API}/channels/{id}`,
    id: 'deleteChannel',
    tag: 'Alerts',
    summary: 'Remove a channel',
    description: 'Monitors that named it stop naming it.',
    access: admin,
    answers: { 200: { description: 'removed', schema: ref('Ok') } },
  },
  {
    method: 'post',
    path: `${API}/channels/{id}/test`,
    id: 'testChannel',
    tag: 'Alerts',
    summary: 'Send a test message',
    access: write,
    body: { schema: ref('Empty'), required: false, description: 'none, or an empty object' },
    answers: { 200: { description: 'how the send went', schema: ref('ChannelTest') } },
  },
  {
    method: 'get',
    path: `${API}/deliveries`,
    id: 'listDeliveries',
    tag: 'Alerts',
    summary: 'The delivery log, newest first',
    access: read,
    query: DELIVERY_QUERY,
    answers: { 200: { description: 'one row per attempt', schema: ref('DeliveryList') } },
  },
];
