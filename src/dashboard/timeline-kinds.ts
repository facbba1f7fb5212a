/**
 * The timeline page's kind filter: every kind of timeline line (events/event-kinds.ts) in one of
 * four groups, with what it records as the checkbox's title. Pure.
 */
import { EVENT_KINDS, EventKind } from '../events/event-kinds';

const GROUPS: { label: string; kinds: EventKind[] }[] = [
  { label: 'Monitors', kinds: ['down', 'up', 'failing', 'first_up', 'slow', 'slow_end', 'flapping', 'cert', 'path'] },
  { label: 'Incidents', kinds: ['closed', 'ack', 'note', 'alert'] },
  {
    label: 'Maintenance',
    kinds: [
      'maintenance.started',
      'maintenance.ended',
      'maintenance_created',
      'maintenance_updated',
      'maintenance_deleted',
    ],
  },
  { label: 'Locations', kinds: ['location', 'location_created', 'location_updated', 'location_deleted'] },
  {
    label: 'Changes',
    kinds: [
      'monitor_created',
      'monitor_updated',
      'monitor_deleted',
      'settings_changed',
      'channel_created',
      'channel_updated',
      'channel_deleted',
      'status_page_updated',
      'domain',
      'exported',
      'imported',
      'key_created',
      'key_revoked',
    ],
  },
  {
    label: 'The service and you',
    kinds: [
      'blind',
      'blind_detection',
      'offline',
      'restored',
      'setup',
      'sign_in',
      'password_changed',
      'totp_replaced',
      'recovery_codes',
      'sessions_revoked',
      'address_blocked',
      'address_unblocked',
      'passkey_added',
      'passkey_removed',
      'enroll_link',
    ],
  },
];

/**
 * Each kind in a few words, as the filter's checkboxes and the timelines' lines show it: the
 * kinds are identifiers for scripts (`monitor_updated`), not words for the owner.
 */
export const KIND_WORDS: Record<EventKind, string> = {
  first_up: 'First good check',
  failing: 'Failing',
  down: 'Down',
  up: 'Up again',
  slow: 'Slow',
  slow_end: 'Normal speed again',
  flapping: 'Flapping',
  cert: 'Certificate expiry',
  closed: 'Incident closed',
  ack: 'Acknowledged',
  alert: 'Alert',
  note: 'Note',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  maintenance_created: 'Maintenance window created',
  maintenance_updated: 'Maintenance window changed',
  maintenance_deleted: 'Maintenance window deleted',
  location: 'Location offline or back',
  location_created: 'Location added',
  location_updated: 'Location changed',
  location_deleted: 'Location removed',
  path: 'Network path problem',
  blind: 'Lost the network',
  blind_detection: 'Blind detection',
  offline: 'Service offline',
  restored: 'Database restored',
  domain: 'Custom host',
  monitor_created: 'Monitor added',
  monitor_updated: 'Monitor changed',
  monitor_deleted: 'Monitor deleted',
  channel_created: 'Channel added',
  channel_updated: 'Channel changed',
  channel_deleted: 'Channel deleted',
  settings_changed: 'Settings changed',
  exported: 'Export with secrets',
  imported: 'Import',
  status_page_updated: 'Status page changed',
  key_created: 'API key made',
  key_revoked: 'API key revoked',
  setup: 'Account created',
  sign_in: 'Sign-in',
  password_changed: 'Password changed',
  totp_replaced: 'Authenticator replaced',
  recovery_codes: 'New recovery codes',
  sessions_revoked: 'Sessions ended',
  address_blocked: 'Address blocked',
  address_unblocked: 'Address unblocked',
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  enroll_link: 'Enrolment link',
};

export interface KindGroup {
  label: string;
  kinds: { kind: EventKind; words: string; what: string }[];
}

export function kindGroups(): KindGroup[] {
  return GROUPS.map((g) => ({
    label: g.label,
    kinds: g.kinds.map((kind) => ({ kind, words: KIND_WORDS[kind], what: EVENT_KINDS[kind] })),
  }));
}

/** KIND_WORDS as JSON for a page's data attribute (the pages' scripts label timeline lines with it). */
export const kindWordsJson = (): string => JSON.stringify(KIND_WORDS);
