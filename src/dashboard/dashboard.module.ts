import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AuthPagesController } from './auth-pages.controller';
import { DashboardController } from './dashboard.controller';

@Module({ imports: [AuthModule], controllers: [DashboardController, AuthPagesController] })
export class DashboardModule {}
