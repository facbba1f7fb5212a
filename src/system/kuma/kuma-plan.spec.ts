import { emptyKumaData, KumaData } from './kuma-data';
import { Capabilities, planKumaImport } from './kuma-plan';

const TODAY: Capabilities = {
  monitorKinds: ['http', 'tcp', 'ping', 'dns', 'tls', 'heartbeat'],
  channelKinds: ['email', 'chat', 'webhook'],
  sections: ['monitors', 'channels', 'status_page'],
};
/** The service once issues 36, 37 and 38 are in: the plan asks, it keeps no list of its own. */
const LATER: Capabilities = {
  monitorKinds: [...TODAY.monitorKinds, 'docker', 'postgres', 'mysql', 'redis', 'mqtt', 'smtp', 'grpc'],
  channelKinds: [
    ...TODAY.channelKinds,
    'ntfy',
    'gotify',
    'telegram',
    'pushover',
    'matrix',
    'pagerduty',
    'home-assistant',
    'apprise',
  ],
  sections: [...TODAY.sections, 'maintenance'],
};
const tools = { tokenHash: (t: string) => `h:${t}`, webhookSecret: () => 'generated-secret-0123456789' };

function data(over: Partial<KumaData>): KumaData {
  return { ...emptyKumaData('Uptime Kuma 2.x database'), ...over };
}
const m = (id: number, over: Record<string, unknown>) => ({
  id,
  name: `M${id}`,
  type: 'http',
  url: 'https://a.example/',
  interval: 60,
  active: 1,
  ...over,
});

describe('planKumaImport', () => {
  it('skips kinds and channel kinds the service does not have, naming them, and takes them once it has', () => {
    const d = data({
      monitors: [
        m(1, { type: 'docker', docker_container: 'plex' }),
        m(2, { type: 'redis', database_connection_string: 'redis://r:6379' }),
      ],
      notifications: [{ id: 1, name: 'Phone', active: 1, config: JSON.stringify({ type: 'ntfy', ntfytopic: 'up' }) }],
      maintenances: [{ id: 1, title: 'Patch', strategy: 'manual', active: 0, timezone: 'UTC' }],
    });
    const today = planKumaImport(d, TODAY, tools);
    expect(today.entries.map((e) => [e.name, e.outcome, e.reason])).toEqual([
      ['Phone', 'skipped', 'channel kind ntfy not supported by this service version'],
      ['M1', 'skipped', 'kind docker not supported by this service version'],
      ['M2', 'skipped', 'kind redis not supported by this service version'],
      ['Patch', 'skipped', 'maintenance windows not supported by this service version'],
    ]);
    expect(today.document).toEqual({ service_export: 1, monitors: [], channels: [], status_page: {} });

    const later = planKumaImport(d, LATER, tools);
    expect(later.entries.every((e) => e.outcome === 'pending')).toBe(true);
    expect(later.document.channels).toEqual([
      { name: 'Phone', kind: 'ntfy', enabled: true, config: { server: 'https://ntfy.sh', topic: 'up' } },
    ]);
    expect(later.document.monitors.map((x) => [x.slug, x.kind, x[x.kind as string]])).toEqual([
      ['m1', 'docker', { container: 'plex', require_healthy: true }],
      ['m2', 'redis', { url: 'redis://r:6379', tls: 'off' }],
    ]);
    expect(later.document.maintenance).toEqual([
      { title: 'Patch', description: null, monitors: [], public: true, schedule: { kind: 'manual' } },
    ]);
  });

  it('makes slugs and channel names unique in Kuma’s order, so a second import matches the same items', () => {
    const d = data({
      monitors: [m(1, { name: 'Web' }), m(2, { name: 'Web' }), m(3, { name: 'Web' })],
      notifications: [1, 2].map((id) => ({
        id,
        name: 'Ops',
        active: 1,
        config: JSON.stringify({ type: 'slack', slackwebhookURL: `https://s/${id}` }),
      })),
      monitorNotifications: [{ monitor_id: 2, notification_id: 2 }],
    });
    const p = planKumaImport(d, TODAY, tools);
    expect(p.document.monitors.map((x) => x.slug)).toEqual(['web', 'web-2', 'web-3']);
    expect(p.document.channels.map((c) => c.name)).toEqual(['Ops', 'Ops (2)']);
    expect(p.document.monitors[1].channels).toEqual(['Ops (2)']);
  });

  it('flattens nested groups, keeps tags with values, and gives webhooks a signing secret', () => {
    const d = data({
      monitors: [
        m(1, { type: 'group', name: 'Home' }),
        m(2, { type: 'group', name: 'Lab', parent: 1 }),
        m(3, { parent: 2 }),
      ],
      tags: [
        { id: 1, name: 'env' },
        { id: 2, name: 'lan' },
      ],
      monitorTags: [
        { monitor_id: 3, tag_id: 1, value: 'prod' },
        { monitor_id: 3, tag_id: 2, value: null },
      ],
      notifications: [
        { id: 1, name: 'Hook', active: 1, config: JSON.stringify({ type: 'webhook', webhookURL: 'https://h/x' }) },
      ],
    });
    const p = planKumaImport(d, TODAY, tools);
    expect(p.document.monitors[0]).toMatchObject({ group: 'Home / Lab', tags: ['env:prod', 'lan'] });
    expect(p.document.channels[0].config).toEqual({
      url: 'https://h/x',
      headers: [],
      secret: 'generated-secret-0123456789',
    });
    expect(p.entries.filter((e) => e.outcome === 'skipped').map((e) => e.reason)).toEqual([
      'a group, not a check: the monitors under it carry the group "Home"',
      'a group, not a check: the monitors under it carry the group "Home / Lab"',
    ]);
  });

  it('takes the first status page: title, description, its monitors public in its groups and order', () => {
    const d = data({
      monitors: [m(1, {}), m(2, {}), m(3, {})],
      statusPage: { id: 4, title: 'Home', description: null },
      pageGroups: [{ id: 1, name: 'Core', weight: 1 }],
      pageMonitors: [
        { group_id: 1, monitor_id: 3, weight: 1 },
        { group_id: 1, monitor_id: 1, weight: 2 },
      ],
    });
    const p = planKumaImport(d, TODAY, tools);
    expect(p.document.status_page).toEqual({ title: 'Home', description: '' });
    expect(p.document.monitors.map((x) => [x.slug, x.public, x.public_group, x.sort])).toEqual([
      ['m1', true, 'Core', 1],
      ['m2', false, null, 0],
      ['m3', true, 'Core', 0],
    ]);
  });

  it('names the notifications a monitor had that are not imported', () => {
    const d = data({
      monitors: [m(1, {})],
      notifications: [{ id: 7, name: 'Line', active: 1, config: JSON.stringify({ type: 'line' }) }],
      monitorNotifications: [{ monitor_id: 1, notification_id: 7 }],
    });
    const p = planKumaImport(d, TODAY, tools);
    expect(p.entries[1].notes).toEqual([
      'notification #7 is not imported (Kuma\'s "line" notifications have no counterpart here)',
    ]);
    expect(p.document.monitors[0].channels).toEqual([]);
  });
});
