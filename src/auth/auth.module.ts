import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { ChallengeService } from './challenge.service';
import { KeysController } from './keys.controller';
import { MeCredentialsService } from './me-credentials.service';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { OwnerSecurityService } from './owner-security.service';
import { PasskeyCeremonies } from './passkeys/ceremonies.service';
import { EnrolmentService } from './passkeys/enrolment.service';
import { MePasskeysController } from './passkeys/me-passkeys.controller';
import { OwnerPasskeysService } from './passkeys/owner-passkeys.service';
import { PasskeyAuthController } from './passkeys/passkey-auth.controller';
import { PasskeySignInService } from './passkeys/passkey-sign-in.service';
import { PasskeyStepUpController } from './passkeys/passkey-step-up.controller';
import { PasswordSignInController } from './password-sign-in.controller';
import { PasswordSignInService } from './password-sign-in.service';
import { PasswordWork } from './password-work.service';
import { ResetService } from './reset.service';
import { SessionsService } from './sessions.service';
import { SetupService } from './setup.service';
import { SignInService } from './sign-in.service';
import { ThrottleService } from './throttle.service';

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
  exports: [ApiKeysService, SessionsService, SignInService, AuthService, OwnerPasskeysService],
})
export class AuthModule {}
