/**
 * Where a docker monitor reaches the Docker Engine API, parsed from its `endpoint` setting:
 * a unix socket (`unix:///var/run/docker.sock`), plain TCP (`tcp://host:2375`) or TLS
 * (`https://host:2376`). Pure: the same parse validates the setting and guides the checker.
 */
import { isIP } from 'node:net';

export type DockerEndpoint =
  { transport: 'unix'; socketPath: string } | { transport: 'tcp' | 'https'; host: string; port: number };

const DEFAULT_PORT = { tcp: 2375, https: 2376 } as const;
const HOST = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9])?$/i;

/** The endpoint, or a sentence saying what is wrong with it. */
export function parseDockerEndpoint(text: string): DockerEndpoint | string {
  if (text.startsWith('unix://')) {
    const socketPath = text.slice('unix://'.length);
    // A path with control characters or `..` is a mistake (or a probe of the file system), never a socket.
    if (!socketPath.startsWith('/') || /[\x00-\x1f]/.test(socketPath) || socketPath.split('/').includes('..'))
      return 'unix:// must be followed by an absolute path, e.g. unix:///var/run/docker.sock';
    return { transport: 'unix', socketPath };
  }
  const m = /^(tcp|https):\/\/(\[[0-9a-f:.]+\]|[^/:[\]]+)(?::(\d{1,5}))?\/?$/i.exec(text);
  if (!m) return 'must be unix:///path/to/docker.sock, tcp://host:port or https://host:port';
  const transport = m[1].toLowerCase() as 'tcp' | 'https';
  const host = m[2].startsWith('[') ? m[2].slice(1, -1) : m[2];
  if (!isIP(host) && !(HOST.test(host) && !/^[\d.]+$/.test(host)))
    return `${host} is not a host name or an IP address (names are ASCII: write an internationalised name in its xn-- form)`;
  const port = m[3] === undefined ? DEFAULT_PORT[transport] : Number(m[3]);
  if (port < 1 || port > 65535) return 'the port must be from 1 to 65535';
  return { transport, host, port };
}

/** A container as Docker names it (`[a-zA-Z0-9][a-zA-Z0-9_.-]*`, a `/` in front allowed) or an id (hex). */
export function isContainerRef(text: string): boolean {
  return /^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]{0,199}$/.test(text);
}
