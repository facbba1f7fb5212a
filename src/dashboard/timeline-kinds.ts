/**
 * The timeline page's kind filter: every kind of timeline line (events/event-kinds.ts) in one of
 * four groups, with what it records as the checkbox's title. Pure.
 */
import { EVENT_KINDS, EventKind } from '../events/event-kinds';

const GROUPS: { label: string; kinds: EventKind[] }[] = [
  { label: 'Monitors', kinds: ['down', 'up', 'failing', 'first_up', 'slow', 'slow_end', 'flapping', 'cert', 'path'] },
  { label: 'Incidents', kinds: ['closed', 'ack', 'note', 'alert'] },
  { label: 'Changes', kinds: ['monitor_created', 'monitor_updated', 'monitor_deleted', 'settings_changed', 'channel_created', 'channel_updated', 'channel_deleted', 'status_page_updated', 'domain', 'exported', 'imported', 'key_created', 'key_revoked'] },
  { label: 'The service and you', kinds: ['blind', 'blind_detection', 'offline', 'restored', 'setup', 'sign_in', 'password_changed', 'totp_replaced', 'recovery_codes', 'sessions_revoked', 'address_blocked', 'address_unblocked', 'passkey_added', 'passkey_removed', 'enroll_link'] },
];

export interface KindGroup {
  label: string;
  kinds: { kind: EventKind; what: string }[];
}

export function kindGroups(): KindGroup[] {
  return GROUPS.map((g) => ({ label: g.label, kinds: g.kinds.map((kind) => ({ kind, what: EVENT_KINDS[kind] })) }));
}
