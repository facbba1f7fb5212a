/**
 * Every kind of timeline line (GET /events), with what it records. EventInput.kind is typed by
 * this list, so a line of a kind that is not here does not compile, and `?kind=` is checked
 * against it. docs/events.md shows the same list; keep the two in step.
 */
export const EVENT_KINDS = {
  // A monitor's status (engine/state-machine.ts, engine/journal/transition-text.ts)
  first_up: 'a new, resumed or changed monitor had its first good check',
  failing: 'the first failed check of a run',
  down: 'Down confirmed (confirm_after failed checks, a missed heartbeat or a failure report)',
  up: 'back up after being Down, with how long it was down',
  slow: 'Slow confirmed (slow_after slow checks)',
  slow_end: 'back to normal speed after Slow',
  flapping: 'flapping started or stopped (data.on)',
  cert: 'a certificate crossed an expiry warning threshold (data.not_after, data.days)',
  closed:
    'an incident ended without recovery: its monitor was paused, deleted, or its kind or target changed (data.reason)',
  ack: 'an incident was acknowledged, or its acknowledgement withdrawn (PATCH /incidents/{id}; data.acknowledged)',
  alert:
    'an alert of an incident was sent, failed after its last try, is being retried, or was not sent because the monitor was muted',
  note: "an incident's note was set, changed or cleared (PATCH /incidents/{id})",
  path: 'a second check contradicted a failure: a network path problem (data.host)',
  // Maintenance windows (docs/maintenance.md)
  'maintenance.started':
    'a maintenance window became active: no incident opens and no alert goes out for its monitors (data.window_id, data.title, data.monitors, data.ends_at)',
  'maintenance.ended':
    'a maintenance window ended (at its scheduled end or by hand); a monitor still Down opens its incident then (data.window_id, data.title, data.monitors)',
  maintenance_created: 'a maintenance window was created (data.window_id)',
  maintenance_updated:
    'a maintenance window was changed, started or stopped by hand, or lost a deleted monitor (data.window_id, data.fields)',
  maintenance_deleted: 'a maintenance window was deleted (data.window_id)',
  // Probe locations (docs/agents.md)
  location:
    'a probe location went offline (no contact from its agent) or came back (data.location_id, data.name, data.online)',
  location_created: 'a probe location was created (data.location_id, data.name)',
  location_updated: 'a probe location was renamed or given a new token (data.location_id, data.fields)',
  location_deleted: 'a probe location was deleted; its token stopped working (data.location_id, data.name)',
  // The service itself
  blind: 'the service lost its network (no canary reachable) or got it back (data.active)',
  blind_detection: 'blind detection cannot work, is off, or works again (data.detection)',
  offline: 'the service was not running from data.from to data.to (data.clean: a planned stop)',
  restored:
    "the database was restored from a backup with farsight restore (data.backup_at: when the backup's service last ran; data.replaced: the replaced database's last-alive mark {at, clean}, or null)",
  domain:
    'a custom host of the status page changed state, had a certificate issued or renewed, a certificate order failed, or was removed (data.host, data.from, data.to)',
  // Changes, with who made them (actor)
  monitor_created: 'a monitor was created (POST, PUT by slug, bulk)',
  monitor_updated:
    'a monitor was changed, paused, resumed, muted or given a new heartbeat URL (data.fields: the names, never the values)',
  monitor_deleted: 'a monitor was deleted (data.monitor_id, data.slug)',
  settings_changed:
    'service settings were changed (PATCH /settings; data.changes: each field with its old and new value)',
  exported:
    'an export with secrets in clear was taken (GET /export?secrets=1); exports with masked secrets are not recorded',
  imported: 'an import was applied (POST /import; data: the monitors and channels created and updated)',
  status_page_updated:
    "the public status page's settings, logo or icon changed (data.fields: the names, never the values)",
  channel_created: 'an alert channel was created (POST /channels, import; data.channel_id, data.channel_kind)',
  channel_updated:
    'an alert channel was changed, enabled or disabled (PATCH /channels/{id}, import; data.fields: the names, never the values; data.enabled when it changed)',
  channel_deleted: 'an alert channel was deleted (data.channel_id, data.channel_kind)',
  key_created: 'an API key was created',
  key_revoked: 'an API key was revoked',
  // The owner
  setup: 'the owner account was created',
  sign_in: 'the owner signed in',
  password_changed:
    'the owner changed the password, or set a new one with a reset link (data.signed_out: sessions ended)',
  totp_replaced: 'the owner replaced the authenticator (data.signed_out: other sessions ended)',
  recovery_codes: 'the owner made 10 new recovery codes; the old ones stopped working',
  sessions_revoked: 'the owner ended one session or every other session (data.signed_out)',
  address_blocked:
    'an address (an IPv6 client: its /64) was blocked after failed sign-in attempts (data.ip, data.until, data.reason)',
  address_unblocked: 'the owner unblocked an address (data.ip)',
  passkey_added: 'a passkey was added (data.passkey_id, data.via: dashboard or enrolment link)',
  passkey_removed: 'a passkey was removed (data.passkey_id)',
  enroll_link: 'a break-glass enrolment link was issued on the server with farsight enroll-link (data.expires_at)',
} as const;

export type EventKind = keyof typeof EVENT_KINDS;

export function isEventKind(text: string): text is EventKind {
  return Object.prototype.hasOwnProperty.call(EVENT_KINDS, text);
}
