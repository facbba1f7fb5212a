import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { CHECKER_ENV, type CheckerEnv } from '../probes/checkers/env';
import { createMailTransport } from './mail-transport';
import { MAIL_TRANSPORT, MailService } from './mail.service';

/** The mail path (docs/alerts.md "Email"): used by alert channels, sign-in notices and reset links. */
@Global()
@Module({
  providers: [
    MailService,
    {
      provide: MAIL_TRANSPORT,
      inject: [APP_CONFIG, CHECKER_ENV],
      useFactory: (config: AppConfig, env: CheckerEnv) =>
        createMailTransport(config, { ca: typeof env.ca === 'string' ? env.ca : undefined }),
    },
  ],
  exports: [MailService, MAIL_TRANSPORT],
})
export class MailModule {}
