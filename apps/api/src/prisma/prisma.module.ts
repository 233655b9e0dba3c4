import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DATABASE_URL } from './database-url.js';
import { HotSql } from './hot-sql.js';
import { PrismaService } from './prisma.service.js';
import { ReplicaPrisma } from './replica-prisma.js';

@Global()
@Module({})
export class PrismaModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: PrismaModule,
      providers: [{ provide: DATABASE_URL, useValue: databaseUrl }, PrismaService, HotSql, ReplicaPrisma],
      exports: [DATABASE_URL, PrismaService, HotSql, ReplicaPrisma],
    };
  }
}
