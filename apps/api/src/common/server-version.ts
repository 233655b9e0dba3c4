import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server's version: package.json's, which follows semantic versioning for the API surfaces
 * (docs/api.md#versioning-and-compatibility). Found by walking up from this file, so it is the
 * same from the sources (tests), from dist/ and in the container image, which keeps package.json.
 */
function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'mizerka-server' && manifest.version) return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("package.json of mizerka-server not found above the server's code");
    dir = parent;
  }
}

export const SERVER_VERSION = readVersion();

/** The API's major version: REST serves it under /api/v<major>; a breaking change raises it. */
export const API_VERSION = SERVER_VERSION.split('.')[0];
