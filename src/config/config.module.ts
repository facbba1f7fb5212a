import { Global, Module } from '@nestjs/common';
import { AppConfig } from './config';

export const APP_CONFIG = Symbol('AppConfig');

/** Makes the config read once in main.ts available for injection. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig) {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
