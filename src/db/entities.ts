/** Every entity, listed explicitly so the bundled binary needs no glob. */
import { ApiKeyEntity } from '../auth/entities/api-key.entity';
import { LinkTokenEntity } from '../auth/entities/link-token.entity';
import { OwnerEntity } from '../auth/entities/owner.entity';
import { PasskeyEntity } from '../auth/entities/passkey.entity';
import { RecoveryCodeEntity } from '../auth/entities/recovery-code.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { EventEntity } from '../events/entities/event.entity';

export const ENTITIES = [OwnerEntity, RecoveryCodeEntity, LinkTokenEntity, SessionEntity, ApiKeyEntity, PasskeyEntity, EventEntity];
