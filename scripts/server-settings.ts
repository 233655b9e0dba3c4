// The server's settings for the db:* scripts, read by the server's own loader (apps/api/src/config),
// so that DATABASE_URL and DATA_DIR mean what they mean to the server, with its defaults and its
// messages for a bad value.
import { ConfigError, readConfig, type AppConfig } from '../apps/api/src/config/app-config.js';

/**
 * The server's configuration from the environment; null, with the server's message on stderr, when
 * a variable is bad. An old spelling is said as the server says it.
 */
export function serverSettings(script: string): AppConfig | null {
  try {
    const { config, warnings } = readConfig(process.env);
    for (const { message } of warnings) process.stderr.write(`${script}: ${message}\n`);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return null;
  }
}
