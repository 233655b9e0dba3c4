// Vitest setupFiles: runs at the start of every test file, also when files share their modules
// (test/per-file.ts).
import { registerForThisFile } from './per-file.js';

registerForThisFile();
