import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { ChallengeService } from './challenge.service';
import { KeysController } from './keys.controller';
import { PasskeyCeremonies } from './passkeys/ceremonies.service';
import { EnrolmentService } from './passkeys/enrolment.service';
import { MePasskeysController } from './passkeys/me-passkeys.controller';
import { OwnerPasskeysService } from './passkeys/owner-passkeys.service';
import { PasskeyAuthController } from './passkeys/passkey-auth.controller';
import { PasskeySignInService } from './passkeys/passkey-sign-in.service';
import { PasskeyStepUpController } from './passkeys/passkey-step-up.controller';
import { SessionsService } from './sessions.service';
import { SetupService } from './setup.service';
import { SignInService } from './sign-in.service';

@Module({
  controllers: [AuthController, KeysController, PasskeyAuthController, PasskeyStepUpController, MePasskeysController],
  providers: [
    ApiKeysService, SessionsService, SetupService, ChallengeService, AuthService, SignInService,
    PasskeyCeremonies, PasskeySignInService, OwnerPasskeysService, EnrolmentService,
  ],
  exports: [ApiKeysService, SessionsService, SignInService, AuthService, OwnerPasskeysService],
})
export class AuthModule {}
