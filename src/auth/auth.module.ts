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
import { PasswordSignInController } from './password-sign-in.controller';
import { PasswordSignInService } from './password-sign-in.service';
import { ResetService } from './reset.service';
import { SessionsService } from './sessions.service';
import { SetupService } from './setup.service';
import { SignInService } from './sign-in.service';
import { ThrottleService } from './throttle.service';

@Module({
  controllers: [AuthController, KeysController, PasswordSignInController, MeController],
  providers: [
    ApiKeysService, SessionsService, SetupService, ChallengeService, AuthService, SignInService,
    OwnerSecurityService, ThrottleService, PasswordSignInService, ResetService, MeService, MeCredentialsService,
  ],
  exports: [ApiKeysService, SessionsService, SignInService],
})
export class AuthModule {}
