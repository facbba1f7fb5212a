import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { ChallengeService } from './sign-in/challenge.service';
import { KeysController } from './api-keys/keys.controller';
import { MeCredentialsService } from './me/me-credentials.service';
import { MeController } from './me/me.controller';
import { MeService } from './me/me.service';
import { OwnerSecurityService } from './password/owner-security.service';
import { PasskeyCeremonies } from './passkeys/ceremonies.service';
import { EnrolmentService } from './passkeys/enrolment.service';
import { MePasskeysController } from './passkeys/me-passkeys.controller';
import { OwnerPasskeysService } from './passkeys/owner-passkeys.service';
import { PasskeyAuthController } from './passkeys/passkey-auth.controller';
import { PasskeySignInService } from './passkeys/passkey-sign-in.service';
import { PasskeyStepUpController } from './passkeys/passkey-step-up.controller';
import { PasswordSignInController } from './password/password-sign-in.controller';
import { PasswordSignInService } from './password/password-sign-in.service';
import { PasswordWork } from './password/password-work.service';
import { ResetService } from './password/reset.service';
import { SessionsService } from './sessions/sessions.service';
import { SetupService } from './setup/setup.service';
import { SignInService } from './sign-in/sign-in.service';
import { ThrottleService } from './sign-in/throttle.service';

@Module({
  controllers: [
    AuthController,
    KeysController,
    PasswordSignInController,
    MeController,
    PasskeyAuthController,
    PasskeyStepUpController,
    MePasskeysController,
  ],
  providers: [
    ApiKeysService,
    SessionsService,
    SetupService,
    ChallengeService,
    AuthService,
    SignInService,
    OwnerSecurityService,
    PasswordWork,
    ThrottleService,
    PasswordSignInService,
    ResetService,
    MeService,
    MeCredentialsService,
    PasskeyCeremonies,
    PasskeySignInService,
    OwnerPasskeysService,
    EnrolmentService,
  ],
  exports: [ApiKeysService, SessionsService, SignInService, AuthService, OwnerPasskeysService, ChallengeService],
})
export class AuthModule {}
