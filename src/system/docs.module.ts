import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** The served documentation and /llms.txt (docs.controller.ts). */
@Module({ controllers: [DocsController] })
export class DocsModule {}
