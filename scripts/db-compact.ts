// `npm run db:compact`: one run of the compaction job now (apps/api/src/compaction), on the database
// at DATABASE_URL: finished games older than COMPACT_AFTER_SECONDS (0 here: every finished game
// with its record stored) get their event log rows replaced by one compact row. The server's
// hourly job does the same; this is for a backlog, and for measuring (apps/api/bench/README.md,
// "Storage"). Safe to stop and run again.
import { parseArgs } from 'node:util';
import { ConfigService } from '@nestjs/config';
import { CompactionService } from '../apps/api/src/compaction/compaction.service.js';
import { MARK as COMPACTION_MARK } from '../apps/api/src/compaction/compaction.sql.js';
import type { JobQueue } from '../apps/api/src/outbox/job-queue.js';
import { PrismaService } from '../apps/api/src/prisma/prisma.service.js';
import { serverSettings } from './server-settings.js';

const USAGE = `npm run db:compact -- [--after-seconds N] [--from-start]

  --after-seconds N   compact games finished at least N seconds ago (default 0: all finished games)
  --from-start        look at every finished game, not only those since the job's mark: once, after
                      migration finished_state_rebuilt, for the games compacted before it (their
                      stored state and record then go)

Needs DATABASE_URL, migrated (npm run db:migrate).
`;

let status = 0;
try {
  const { values } = parseArgs({ options: { 'after-seconds': { type: 'string' }, 'from-start': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const config = serverSettings('db:compact');
  if (!config) process.exit(1);
  if (config.databaseUrl === null) {
    process.stdout.write(USAGE);
    process.exit(2);
  }
  const after = Number(values['after-seconds'] ?? '0');
  if (!Number.isInteger(after) || after < 0) throw new Error(`--after-seconds needs a whole number ≥ 0, not ${JSON.stringify(values['after-seconds'])}`);
  const settings = new ConfigService({ ...config, compaction: { ...config.compaction, afterSeconds: Math.max(after, 1) } });
  const prisma = new PrismaService(config.databaseUrl, settings as never);
  // The job queue only schedules the server's hourly runs: this run is the script's own.
  const compaction = new CompactionService(prisma, null as unknown as JobQueue, settings as never);
  if (values['from-start']) await prisma.jobMark.deleteMany({ where: { name: COMPACTION_MARK } });
  const started = performance.now();
  // `now` a second ahead: with --after-seconds 0 a game that ended this very second is included.
  const counts = await compaction.run(new Date(Date.now() + (after === 0 ? 1000 : 0)));
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`compacted ${counts.compacted} games (${counts.kept} kept as rows, ${counts.done} already done) in ${seconds.toFixed(1)} s\n`);
  await prisma.onModuleDestroy();
} catch (error) {
  process.stderr.write(`db:compact failed: ${error instanceof Error ? error.message : String(error)}\n`);
  status = 1;
}
process.exit(status);
