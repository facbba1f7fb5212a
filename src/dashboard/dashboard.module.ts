import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CatalogModule } from '../catalog/catalog.module';
import { AppPagesController } from './app-pages.controller';
import { AuthPagesController } from './auth-pages.controller';
import { DashboardAssets } from './dashboard-assets';
import { DashboardController } from './dashboard.controller';

@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [DashboardController, AuthPagesController, AppPagesController],
  providers: [DashboardAssets],
})
export class DashboardModule {}
