import { Global, Module } from '@nestjs/common';
import { Database } from './database';

/** Provides the Database opened in main.ts (or by a test) to every module. */
@Global()
@Module({})
export class DbModule {
  static forRoot(db: Database) {
    return { module: DbModule, providers: [{ provide: Database, useValue: db }], exports: [Database] };
  }
}
