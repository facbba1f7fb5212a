import { ref } from '../../common/validation/common.schema';
import { AGENT_CONFIG_QUERY } from '../../locations/location.schema';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const tag = 'Locations';
const extra = 'probe locations (the extensions of the specification, section 6; docs/agents.md).';

export const LOCATION_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: `${API}/locations`,
    id: 'listLocations',
    tag,
    summary: 'List probe locations (one page, oldest first)',
    access: { scope: 'read' },
    answers: { 200: { description: 'locations', schema: ref('LocationList') } },
    extra,
  },
  {
    method: 'post',
    path: `${API}/locations`,
    id: 'createLocation',
    tag,
    summary: 'Add a probe location; its agent token is shown once',
    description: 'A name used already (in any case), or `local`: 422 on `name`.',
    access: { scope: 'admin', stepUp: true },
    body: { schema: ref('LocationInput') },
    answers: { 201: { description: 'the location and its token', schema: ref('LocationWithToken') } },
    extra,
  },
  {
    method: 'patch',
    path: `${API}/locations/{id}`,
    id: 'renameLocation',
    tag,
    summary: 'Rename a probe location (the monitors that list it follow)',
    access: { scope: 'admin' },
    body: { schema: ref('LocationInput') },
    answers: { 200: { description: 'the location', schema: ref('Location') } },
    extra,
  },
  {
    method: 'delete',
    path: `${API}/locations/{id}`,
    id: 'deleteLocation',
    tag,
    summary: 'Delete a probe location; its token stops working at once',
    description:
      'The monitors that list it lose it (a monitor left with none is checked from `local`; a quorum out of reach becomes null).',
    access: { scope: 'admin', stepUp: true },
    answers: { 204: { description: 'deleted' } },
    extra,
  },
  {
    method: 'post',
    path: `${API}/locations/{id}/token`,
    id: 'rotateLocationToken',
    tag,
    summary: 'Give a location a new agent token, shown once; the old one stops working at once',
    access: { scope: 'admin', stepUp: true },
    body: { schema: ref('Empty'), required: false },
    answers: { 200: { description: 'the location and its new token', schema: ref('LocationWithToken') } },
    extra,
  },
  {
    method: 'get',
    path: '/api/agent/config',
    id: 'agentConfig',
    tag,
    summary: "An agent's monitors (a long poll): for `farsight agent` only, not for clients",
    description:
      "Answers 200 with the monitors of the token's location when its revision differs from `revision`, else 204 after `wait_s` (or as soon as it changes).",
    access: { public: true },
    accessNote: 'Only an agent token (`Authorization: Bearer fsa_...`, docs/agents.md); no session or API key.',
    query: AGENT_CONFIG_QUERY,
    answers: {
      200: { description: 'the configuration', schema: ref('AgentConfig') },
      204: { description: 'nothing changed' },
    },
    errors: [401, 429],
    extra: 'the agent protocol v1 (docs/agents.md).',
  },
  {
    method: 'post',
    path: '/api/agent/results',
    id: 'agentResults',
    tag,
    summary: 'Results from an agent, in a batch: for `farsight agent` only, not for clients',
    access: { public: true },
    accessNote: 'Only an agent token (`Authorization: Bearer fsa_...`, docs/agents.md); no session or API key.',
    body: { schema: ref('AgentResults') },
    answers: { 200: { description: 'what is stored', schema: ref('AgentResultsAnswer') } },
    errors: [401, 429],
    extra: 'the agent protocol v1 (docs/agents.md).',
  },
];
