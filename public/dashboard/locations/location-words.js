// What the Locations page and the monitor pages say about probe locations (docs/agents.md):
// a location's state in words, the lines that install an agent for a new token. Pure
// (test/dashboard/location-words.spec.ts).
/** The status class (app.css `.status.<class>`) and the word of a location's state. */
export const LOCATION_STATES = {
  online: { cls: 'up', word: 'Online' },
  offline: { cls: 'down', word: 'Offline' },
  never: { cls: 'unknown', word: 'Never connected' },
};

/**
 * The commands that install and start an agent on another box with `token`: the .deb of this
 * version (the same package as the service; arm64 for a Raspberry Pi), the service the package
 * starts switched off again (that box only checks, docs/agents.md), the environment file the
 * agent's unit reads, written with the server's address and the token, then the unit started.
 * The file is written by `install -m 0600` so the token is never readable by other users, even
 * for a moment; a here-document keeps the token out of the shell's history and the process list.
 */
export function installText({ server, token, version, envFile }) {
  return [
    `# on the box that checks from this location (Debian 12, Ubuntu 22.04+, Raspberry Pi OS 64-bit)`,
    `sudo apt install ./farsight_${version}_amd64.deb    # or farsight_${version}_arm64.deb on a Pi`,
    `sudo systemctl disable --now farsight    # this box only checks: the service itself is not wanted here`,
    `sudo install -m 0600 /dev/stdin ${envFile} <<'EOF'`,
    `FARSIGHT_AGENT_SERVER=${server}`,
    `FARSIGHT_AGENT_TOKEN=${token}`,
    `EOF`,
    `sudo systemctl enable --now farsight-agent`,
  ].join('\n');
}

/**
 * Whether a server address can carry a token: the agent refuses plain http except on loopback
 * (its token and the monitors' secrets would cross the network in clear), so the page warns.
 */
export function plainHttpWarning(server) {
  let u;
  try {
    u = new URL(server);
  } catch {
    return null;
  }
  if (u.protocol === 'https:') return null;
  const h = u.hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || /^127\./.test(h)) return null;
  return `This service's address (${server}) is plain http: an agent on another box refuses it, because its token and the monitors' secrets would cross the network in clear. Give the service an https address (FARSIGHT_PUBLIC_URL behind a TLS proxy) and use that address on the agent.`;
}
