import { resolve } from 'node:path';
import type { z } from 'zod';
import { appConfigSchema, settingRegistry, settingsSchema, type SettingMeta } from './settings.js';

// Configuration comes from the environment and is checked once at start-up, so a typo in a
// variable stops the server with a message instead of failing on the first request. What each
// variable means, its kind and its default are in settings.ts (and docs/configuration.md).
export type AppConfig = z.output<typeof appConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** An old spelling that was read: said once at start, naming the variable and its new spelling. */
export interface ConfigWarning {
  variable: string;
  message: string;
}

/** One setting of the schema: where its value goes in AppConfig, and what the schema says of it. */
export interface Setting {
  path: string[];
  meta: SettingMeta;
}

/** Every setting, in the schema's order. */
export const SETTINGS: readonly Setting[] = settingsOf(settingsSchema.shape, []);

function settingsOf(shape: Record<string, z.ZodType>, path: string[]): Setting[] {
  return Object.entries(shape).flatMap(([key, schema]) => {
    const meta = settingRegistry.get(schema);
    if (meta) return [{ path: [...path, key], meta }];
    if ('shape' in schema) return settingsOf(schema.shape as Record<string, z.ZodType>, [...path, key]);
    throw new Error(`settings.ts: ${[...path, key].join('.')} is neither a setting nor a group of settings`);
  });
}

type Env = Record<string, string | undefined>;

/** Blank is unset. */
function valueOf(env: Env, variable: string): string | undefined {
  const value = env[variable]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The configuration in `env`, and the old spellings it uses; ConfigError names every bad variable. */
export function readConfig(env: Env): { config: AppConfig; warnings: ConfigWarning[] } {
  const problems: string[] = [];
  const warnings: ConfigWarning[] = [];
  const input: Record<string, unknown> = {};
  /** What was read for each setting, by path: the variable as it names it in a message, and the text. */
  const read = new Map<string, { label: string; raw: string }>();

  for (const { path, meta } of SETTINGS) {
    let label = meta.variable;
    let raw = valueOf(env, meta.variable);
    let shown = raw;
    const old = meta.replaces;
    const oldRaw = old && valueOf(env, old.variable);
    if (old && oldRaw !== undefined) {
      if (raw !== undefined) {
        warnings.push({ variable: old.variable, message: `${old.variable} is ignored: ${meta.variable}, its new spelling, is set` });
      } else {
        raw = old.respell(oldRaw);
        if (raw === undefined) {
          // Its default stands in, so that the other settings are still checked.
          problems.push(`${old.variable}: expected ${old.expected}, got "${oldRaw}" (its new spelling is ${meta.variable}, in seconds)`);
        } else {
          warnings.push({ variable: old.variable, message: `${old.variable} is an old spelling: write ${meta.variable}=${raw} instead of ${old.variable}=${oldRaw}` });
          label = `${old.variable} (read as ${meta.variable}=${raw})`;
          shown = oldRaw;
        }
      }
    }
    const respelled = raw === undefined ? undefined : meta.respell?.(raw);
    if (respelled !== undefined) {
      warnings.push({ variable: meta.variable, message: `${meta.variable}=${raw} is an old spelling: write ${meta.variable}=${respelled}` });
      raw = respelled;
    }
    if (shown !== undefined) read.set(path.join('.'), { label, raw: shown });
    const group = path.slice(0, -1).reduce<Record<string, unknown>>((at, key) => (at[key] ??= {}) as Record<string, unknown>, input);
    group[path[path.length - 1]] = raw ?? meta.default;
  }

  const parsed = appConfigSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const source = read.get(issue.path.join('.'));
      problems.push(source ? `${source.label}: ${issue.message}, got "${source.raw}"` : issue.message);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return { config: parsed.data, warnings };
}

/** The configuration in `env` (its old spellings read silently: the server's start says them). */
export function loadConfig(env: Env): AppConfig {
  return readConfig(env).config;
}

/** Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset: DATA_DIR/postgres (the server's, and db:migrate's). */
export function embeddedDataDir(config: Pick<AppConfig, 'dataDir'>): string {
  return resolve(config.dataDir, 'postgres');
}
