// `npm run docs:config`: writes docs/configuration.md from the settings' schema
// (apps/api/src/config/settings.ts); configuration-doc.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURATION_DOC, configurationDoc } from '../apps/api/src/config/configuration-doc.js';
import { projectRoot } from '../apps/api/src/database/migrations.js';

const path = join(projectRoot(), CONFIGURATION_DOC);
const doc = configurationDoc();
let before = '';
try {
  before = readFileSync(path, 'utf8');
} catch {
  // not written yet
}
if (before === doc) {
  process.stdout.write(`${CONFIGURATION_DOC} is up to date\n`);
} else {
  writeFileSync(path, doc);
  process.stdout.write(`wrote ${CONFIGURATION_DOC}: commit it with the change to the settings\n`);
}
