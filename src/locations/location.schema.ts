/** The location routes' bodies and answers (location-rules.ts, locations.service.ts). Pure. */
import { int, nullable, obj, oneOfValues, page, ref, SchemaSet, str, time } from '../common/validation/common.schema';
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
  };
}
