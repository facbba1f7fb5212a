/**
 * The probe agent's packaging agrees with itself and with the service's: its unit is sandboxed at
 * least as tightly as farsight.service (every hardening line there is here, but for the few that
 * differ on purpose), the .deb installs the unit and a settings file that documents every
 * FARSIGHT_AGENT_* variable the agent reads, and the maintainer scripts stop and purge it.
 * packaging/smoke.sh checks the built .deb itself; test/security/systemd-unit.e2e-spec.ts has
 * systemd rate the sandbox.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const directives = (unit: string) =>
  new Map(
    unit
      .split('\n')
      .filter((l) => /^[A-Z][A-Za-z]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
  );

/** Lines of farsight.service the agent's unit does not copy, and why. */
const DIFFERENT = {
  Description: 'its own',
  Documentation: 'docs/agents.md',
  // DynamicUser= instead: a user of its own that shares nothing with a service on the same box.
  User: 'DynamicUser',
  Group: 'DynamicUser',
  ExecStart: 'farsight agent',
  // The agent listens on no port: no CAP_NET_BIND_SERVICE.
  AmbientCapabilities: 'CAP_NET_RAW only',
  CapabilityBoundingSet: 'CAP_NET_RAW only',
  Environment: 'its spool dir',
  EnvironmentFile: 'agent.env',
  StateDirectory: 'farsight-agent',
  WorkingDirectory: 'its state dir',
};

describe('the probe agent packaging', () => {
  const server = directives(read('systemd/farsight.service'));
  const agent = directives(read('systemd/farsight-agent.service'));

  it('sandboxes the agent as tightly as the service', () => {
    const missing = [...server]
      .filter(([key, value]) => !(key in DIFFERENT) && agent.get(key) !== value)
      .map(([key, value]) => `${key}=${value} (agent: ${agent.get(key) ?? 'unset'})`);
    expect(missing).toEqual([]);
    expect(agent.get('DynamicUser')).toBe('yes');
    expect(agent.get('CapabilityBoundingSet')).toBe('CAP_NET_RAW');
    expect(agent.get('StateDirectory')).toBe('farsight-agent');
    expect(agent.get('EnvironmentFile')).toBe('-/etc/farsight/agent.env');
    expect(agent.get('RestartPreventExitStatus')).toBe('2');
  });

  it('installs the unit, its settings (root only) and docs/agents.md in both .debs, agent.env as a conffile', () => {
    const build = read('packaging/build-deb.sh');
    expect(build).toContain(
      'install -D -m 0644 systemd/farsight-agent.service "$stage/lib/systemd/system/farsight-agent.service"',
    );
    expect(build).toContain('install -D -m 0600 packaging/deb/agent.env "$stage/etc/farsight/agent.env"');
    expect(build).toContain('install -D -m 0644 docs/agents.md "$doc/agents.md"');
    expect(build).toMatch(/printf '[^']*\/etc\/farsight\/agent\.env\\n' >"\$stage\/DEBIAN\/conffiles"/);
    // One staging for both architectures: the arch only picks the binary.
    expect(build.match(/farsight-agent\.service/g)).toHaveLength(2);
  });

  it('documents in agent.env every FARSIGHT_AGENT_* variable the agent reads', () => {
    const env = read('packaging/deb/agent.env');
    const read_ = [...read('src/agent/agent-config.ts').matchAll(/'(FARSIGHT_AGENT_[A-Z_]+)'/g)].map((m) => m[1]);
    expect(read_.length).toBeGreaterThanOrEqual(6);
    for (const v of new Set(read_)) expect(env).toMatch(new RegExp(`^#?${v}=`, 'm'));
  });

  it('stops the agent on removal and deletes its spool on purge', () => {
    expect(read('packaging/deb/prerm')).toContain('systemctl stop farsight-agent.service');
    const postrm = read('packaging/deb/postrm');
    expect(postrm).toContain('rm -rf /var/lib/farsight-agent /var/lib/private/farsight-agent');
    expect(postrm).toContain('multi-user.target.wants/farsight-agent.service');
    expect(read('packaging/deb/postinst')).toMatch(/chmod 0600 "\$AGENT_ENV_FILE"/);
  });
});
