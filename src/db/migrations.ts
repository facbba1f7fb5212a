/**
 * Every migration, in order. Listed explicitly (not globbed) so the bundled single binary carries
 * them. Append-only: never edit a migration that has shipped; add a new one.
 */
import { Foundation1767225600000 } from '../../migrations/1767225600000-Foundation';
import { Monitors1767312000000 } from '../../migrations/1767312000000-Monitors';
import { Checks1767398400000 } from '../../migrations/1767398400000-Checks';
import { Rollups1767484800000 } from '../../migrations/1767484800000-Rollups';
import { HistoryOrphans1767571200000 } from '../../migrations/1767571200000-HistoryOrphans';
import { LastAlive1767657600000 } from '../../migrations/1767657600000-LastAlive';
import { Incidents1767744000000 } from '../../migrations/1767744000000-Incidents';
import { Alerts1767830400000 } from '../../migrations/1767830400000-Alerts';
import { StatusPage1767916800000 } from '../../migrations/1767916800000-StatusPage';
import { Passkeys1768089600000 } from '../../migrations/1768089600000-Passkeys';
import { SignInSecurity1768176000000 } from '../../migrations/1768176000000-SignInSecurity';
import { CheckLog1768348800000 } from '../../migrations/1768348800000-CheckLog';
import { Domains1768435200000 } from '../../migrations/1768435200000-Domains';
import { CertPins1768608000000 } from '../../migrations/1768608000000-CertPins';
import { Maintenance1768694400000 } from '../../migrations/1768694400000-Maintenance';
import { Dependencies1768780800000 } from '../../migrations/1768780800000-Dependencies';
import { Subscribers1768867200000 } from '../../migrations/1768867200000-Subscribers';
import { ServiceChannels1768953600000 } from '../../migrations/1768953600000-ServiceChannels';
import { MaintenanceRollups1769126400000 } from '../../migrations/1769126400000-MaintenanceRollups';
import { Locations1769212800000 } from '../../migrations/1769212800000-Locations';
import { LocationRollups1769299200000 } from '../../migrations/1769299200000-LocationRollups';
import { PublicMonitors1769385600000 } from '../../migrations/1769385600000-PublicMonitors';

export const MIGRATIONS = [
  Foundation1767225600000,
  Monitors1767312000000,
  Checks1767398400000,
  Rollups1767484800000,
  HistoryOrphans1767571200000,
  LastAlive1767657600000,
  Incidents1767744000000,
  Alerts1767830400000,
  StatusPage1767916800000,
  Passkeys1768089600000,
  SignInSecurity1768176000000,
  CheckLog1768348800000,
  Domains1768435200000,
  CertPins1768608000000,
  Maintenance1768694400000,
  Dependencies1768780800000,
  Subscribers1768867200000,
  ServiceChannels1768953600000,
  MaintenanceRollups1769126400000,
  Locations1769212800000,
  LocationRollups1769299200000,
  PublicMonitors1769385600000,
];
