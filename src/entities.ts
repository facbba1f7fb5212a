/**
 * Every TypeORM entity, listed explicitly so the bundled binary needs no glob. The list is the
 * composition's, handed to openDatabase() by whoever opens the service's database (main.ts, the
 * tests' app), so db/ knows no feature module.
 */
import { AddressBlockEntity } from './auth/entities/address-block.entity';
import { ApiKeyEntity } from './auth/entities/api-key.entity';
import { LinkTokenEntity } from './auth/entities/link-token.entity';
import { OwnerEntity } from './auth/entities/owner.entity';
import { PasskeyEntity } from './auth/entities/passkey.entity';
import { RecoveryCodeEntity } from './auth/entities/recovery-code.entity';
import { SessionEntity } from './auth/entities/session.entity';
import { SignInTicketEntity } from './auth/entities/sign-in-ticket.entity';
import { TotpSetupEntity } from './auth/entities/totp-setup.entity';
import { EventEntity } from './events/entities/event.entity';

export const ENTITIES = [
  OwnerEntity,
  RecoveryCodeEntity,
  LinkTokenEntity,
  SessionEntity,
  ApiKeyEntity,
  PasskeyEntity,
  SignInTicketEntity,
  TotpSetupEntity,
  AddressBlockEntity,
  EventEntity,
];
