import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './app-config.js';

/**
 * The configuration is validated in main.ts before Nest starts (the database must be resolved
 * first); @nestjs/config then serves that one validated object to every module.
 */
export function configModule(config: AppConfig) {
  return ConfigModule.forRoot({
    isGlobal: true,
    ignoreEnvFile: true,
    skipProcessEnv: true,
    load: [() => config],
  });
}
