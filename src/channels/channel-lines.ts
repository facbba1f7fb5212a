/**
 * The timeline lines of channel changes (docs/events.md): created, changed (enabled, disabled,
 * renamed, events, config) and deleted. Where alerts go is configuration like a monitor's, so a
 * key that silences alerting leaves a line naming it. Lines name the fields that changed, never
 * their values: a webhook's URL, signing secret and header values, and a chat URL, are secrets, and
 * the config's other values are left out too so the rule stays one rule. The channel's name (and
 * its old name after a rename) is what people know it by, as a monitor's line names the monitor. Pure.
 */
import { changedFields } from '../common/canonical';
import { SecretSchema, secretValues } from '../common/secrets/secret-fields';
import type { Channel } from './channel-body';

export interface ChannelLine {
  kind: 'channel_created' | 'channel_updated' | 'channel_deleted';
  text: string;
  data: Record<string, unknown>;
}

export function channelCreatedLine(c: Channel): ChannelLine {
  return {
    kind: 'channel_created',
    text: `channel "${c.name}" created (${c.kind})${c.enabled ? '' : ', disabled'}`,
    data: { channel_id: c.id, channel_kind: c.kind, ...(c.enabled ? {} : { enabled: false }) },
  };
}

export function channelDeletedLine(c: Channel): ChannelLine {
  return {
    kind: 'channel_deleted',
    text: `channel "${c.name}" deleted (${c.kind})`,
    data: { channel_id: c.id, channel_kind: c.kind },
  };
}

/**
 * The line of a change, or null when nothing changed (a PATCH that repeats the stored values
 * leaves no line, as for monitors). `secrets` is the kind's secret schema: a config field whose
 * secret values differ is marked "(secret changed)".
 */
export function channelChangedLine(before: Channel, after: Channel, secrets: SecretSchema): ChannelLine | null {
  const fields = changedFields(shape(before), shape(after));
  if (fields.length === 0) return null;
  const named =
    after.name === before.name ? `channel "${after.name}"` : `channel "${after.name}" (was "${before.name}")`;
  const others = fields
    .filter((f) => f !== 'enabled')
    .map((f) => (secretChanged(f, before, after, secrets) ? `${f} (secret changed)` : f));
  const parts: string[] = [];
  // Disabling is what silences alerting: it leads the line, in words.
  if (fields.includes('enabled'))
    parts.push(after.enabled ? 'enabled' : 'disabled: it sends no alerts until enabled again');
  if (others.length) parts.push(`changed: ${others.join(', ')}`);
  return {
    kind: 'channel_updated',
    text: `${named} ${parts.join('; ')}`,
    data: { channel_id: after.id, fields, ...(fields.includes('enabled') ? { enabled: after.enabled } : {}) },
  };
}

/** What a change is judged on: the four fields a channel's owner may change. */
function shape(c: Channel): Record<string, unknown> {
  return { name: c.name, enabled: c.enabled, events: c.events, config: c.config };
}

/** Whether a `config.<key>` field holds secrets whose values differ (compared, never shown). */
function secretChanged(field: string, before: Channel, after: Channel, secrets: SecretSchema): boolean {
  if (!field.startsWith('config.')) return false;
  const key = field.slice('config.'.length);
  const values = (c: Channel) => secretValues({ [key]: c.config[key] }, secrets);
  const a = values(before);
  const b = values(after);
  return a.length !== b.length || a.some((v, i) => v !== b[i]);
}
