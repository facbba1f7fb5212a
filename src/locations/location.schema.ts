/** The location routes' bodies and answers (location-rules.ts, locations.service.ts). Pure. */
import {
  anyObject,
  bool,
  int,
  list,
  nullable,
  obj,
  oneOfValues,
  page,
  QueryParam,
  ref,
  SchemaSet,
  str,
  time,
} from '../common/validation/common.schema';
import { MONITOR_KINDS } from '../probes/kinds';
import { MAX_RESULTS, REVISION_MAX, WAIT_S } from './agent/agent-input';
import { TEXT_RULE_WORDS } from '../common/validation/text-rules';
import { LOCATION_STATES, NAME_MAX } from './location-rules';

const NAME = str({
  minLength: 1,
  maxLength: NAME_MAX,
  description: `${TEXT_RULE_WORDS.name}; unique without regard to case; \`local\` is the service itself`,
});

const LOCATION = {
  id: int(1),
  name: NAME,
  state: oneOfValues(LOCATION_STATES, {
    description:
      'online: its agent was in contact lately; offline: not for 3 intervals (at least 60 s); never: no contact yet',
  }),
  last_seen_at: nullable(time({ description: "the agent's last contact" })),
  version: nullable(str({ description: "the agent's version, as it said" })),
  address: nullable(str({ description: "the agent's address, as the service saw it" })),
  monitors: int(0, undefined, { description: 'how many monitors list it' }),
};

export function locationSchemas(): SchemaSet {
  return {
    Location: obj(LOCATION),
    LocationList: page(ref('Location')),
    LocationWithToken: obj(
      {
        ...LOCATION,
        token: str({
          pattern: '^fsa_[0-9a-f]{48}$',
          description:
            "the agent's token (FARSIGHT_AGENT_TOKEN), shown this once; only its SHA-256 is stored (docs/agents.md)",
        }),
      },
      { description: 'the location and its new token' },
    ),
    LocationInput: obj({ name: NAME }, { required: ['name'] }),
    AgentConfig: obj({
      revision: str({ description: 'opaque; send it back as `?revision=`' }),
      location: obj({ id: int(1), name: NAME }),
      server_time: time(),
      allow_private_targets: bool(),
      monitors: list(
        obj({
          id: int(1),
          slug: str(),
          name: str(),
          kind: oneOfValues(MONITOR_KINDS.filter((k) => k !== 'heartbeat')),
          interval_s: int(10),
          timeout_ms: int(500),
          retry_interval_s: int(5),
          slow_ms: nullable(int(0)),
          config: anyObject({ description: "the kind's settings, secrets in clear (src/probes/kinds.ts)" }),
        }),
      ),
    }),
    AgentResults: obj({
      agent: obj({ version: str({ maxLength: 40 }), blind: bool() }),
      results: list(
        obj({
          seq: int(1, undefined, { description: 'increasing per agent, across restarts' }),
          monitor_id: int(1),
          at: time(),
          result: anyObject({ description: 'the CheckResult of the checkers (src/probes/check-result.ts)' }),
        }),
        { maxItems: MAX_RESULTS },
      ),
    }),
    AgentResultsAnswer: obj({
      acked_seq: int(0, undefined, { description: 'every result with a seq up to it is stored' }),
      stored: int(0),
      ignored: list(obj({ seq: int(1), reason: str() })),
    }),
  };
}

export const AGENT_CONFIG_QUERY: QueryParam[] = [
  {
    name: 'revision',
    schema: str({ maxLength: REVISION_MAX }),
    description: 'the revision the agent holds; absent on its first call',
  },
  {
    name: 'wait_s',
    schema: int(WAIT_S.min, WAIT_S.max, { default: WAIT_S.default }),
    description: 'how long to wait for a change before answering 204',
  },
];
