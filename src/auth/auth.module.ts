import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { ChallengeService } from './challenge.service';
import { KeysController } from './keys.controller';
import { SessionsService } from './sessions.service';
import { SetupService } from './setup.service';
import { SignInService } from './sign-in.service';

@Module({
  controllers: [AuthController, KeysController],
  providers: [ApiKeysService, SessionsService, SetupService, ChallengeService, AuthService, SignInService],
  exports: [ApiKeysService, SessionsService, SignInService],
})
export class AuthModule {}
