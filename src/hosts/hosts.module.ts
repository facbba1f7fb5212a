import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AcmeService } from './acme.service';
import { CertStore } from './cert-store';
import { ChallengeStore } from './challenges';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { HostListeners } from './listeners';
import { ServedCerts } from './served-certs';

/**
 * Custom hosts of the status page: DNS read at each zone's own nameservers, certificates ordered
 * over ACME and renewed, the HTTP-01 and HTTPS listeners (docs/custom-hosts.md). The settings
 * (which hosts) belong to status/, which tells this module inside its transaction (syncIn).
 */
@Module({
  providers: [
    { provide: CertStore, useFactory: (config: AppConfig) => new CertStore(config.dataDir), inject: [APP_CONFIG] },
    ChallengeStore,
    ServedCerts,
    AcmeService,
    DomainsRepository,
    DomainsService,
    HostListeners,
  ],
  exports: [DomainsService, HostListeners, ChallengeStore],
})
export class HostsModule {}
