import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from './app-config.js';
import { CONFIGURATION_DOC, configurationDoc } from './configuration-doc.js';

const committed = readFileSync(fileURLToPath(new URL(`../../../../${CONFIGURATION_DOC}`, import.meta.url)), 'utf8');

describe('docs/configuration.md', () => {
  it('is what the settings say (after changing them: npm run docs:config)', () => {
    expect(committed === configurationDoc(), `${CONFIGURATION_DOC} is out of date: run npm run docs:config and commit it`).toBe(true);
  });

  it('lists every setting once, its default, and the old spellings', () => {
    const doc = configurationDoc();
    for (const { meta } of SETTINGS) {
      expect(doc.match(new RegExp(`^\\| \`${meta.variable}\` \\|`, 'gm')), meta.variable).toHaveLength(1);
      if (meta.default !== undefined) expect(doc, meta.variable).toContain(`| \`${meta.variable}\` | \`${meta.default}\` |`);
      if (meta.replaces) expect(doc, meta.replaces.variable).toMatch(new RegExp(`^\\| \`${meta.replaces.variable}\` \\(.*\\| \`${meta.variable}\` \\(seconds\\) \\|$`, 'm'));
    }
  });

  it('puts about a dozen operator settings first', () => {
    const doc = configurationDoc();
    const operator = doc.slice(doc.indexOf('## Operator settings'), doc.indexOf('## Tuning'));
    const rows = operator.match(/^\| `[A-Z_]+` \|/gm) ?? [];
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.length).toBeLessThanOrEqual(15);
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'WORKERS', 'TRUST_PROXY']) expect(operator).toContain(`| \`${variable}\` |`);
  });
});
