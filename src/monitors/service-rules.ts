/**
 * Rules of the settings of the kinds that check a service by its own protocol (smtp, docker) that
 * need parsing beyond the DTO's types and bounds. Pure: returns field errors, changes nothing.
 */
import type { FieldError } from '../common/http/api-error';
import type { MonitorKind } from '../probes/kinds';
import { isContainerRef, parseDockerEndpoint } from '../probes/services/docker-endpoint';
import type { MonitorDto } from './dto/monitor.dto';

const HOST_MESSAGE =
  'must be a host name or an IP address (names are ASCII: write an internationalised name in its xn-- form)';

export function serviceRuleErrors(
  m: MonitorDto,
  kind: MonitorKind,
  isHostOrIp: (text: string) => boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  if (kind === 'smtp' && m.smtp) {
    if (!isHostOrIp(m.smtp.host)) add('smtp.host', HOST_MESSAGE);
  }
  if (kind === 'docker' && m.docker) {
    const endpoint = parseDockerEndpoint(m.docker.endpoint);
    if (typeof endpoint === 'string') add('docker.endpoint', endpoint);
    if (!isContainerRef(m.docker.container))
      add('docker.container', "must be a container's name or id: letters, digits, _ . - (and no / inside)");
  }
  return errors;
}
