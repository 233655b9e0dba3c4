// `npm run db:migration -- NAME`: writes prisma/migrations/<timestamp>_NAME/ from the changes made to
// prisma/schema.prisma since the last migration, with Prisma's schema engine. Needs no database.
import { relative } from 'node:path';
import { projectRoot } from '../apps/api/src/database/migrations.js';
import { createMigration } from '../apps/api/src/database/schema-engine.js';

const args = process.argv.slice(2);
if (args.length !== 1 || !args[0].trim()) {
  process.stderr.write('usage: npm run db:migration -- NAME   (e.g. add_lobbies)\n');
  process.exit(2);
}

try {
  const folder = await createMigration(args[0]);
  if (folder === null) {
    process.stdout.write('prisma/schema.prisma has not changed since the last migration: nothing written\n');
  } else {
    process.stdout.write(`wrote ${relative(projectRoot(), folder)}/migration.sql: review it, then commit the folder\n`);
  }
  // Exit explicitly: the WebAssembly engine can keep the event loop alive.
  process.exit(0);
} catch (error) {
  process.stderr.write(`db:migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
