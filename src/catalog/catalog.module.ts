import { Module } from '@nestjs/common';
import { MonitorsRepository } from './monitors.repository';

/** The stored monitors (monitors and monitor_state tables): written by monitors/, read by the engine and history. */
@Module({ providers: [MonitorsRepository], exports: [MonitorsRepository] })
export class CatalogModule {}
