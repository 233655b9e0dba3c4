/**
 * npm run bench:import — imports of the largest record (a bidding game to 10,000 of ~520 deals,
 * just under the 512 KiB limit, ended by a resignation) back to back, by `--importers` players at
 * once, while another client asks for GET /health every `--interval` ms: each import's time, the
 * server's CPU per import, and the latency of /health (p50/p99/max) during the imports and alone
 * before them. The server runs in its own process (server.ts). A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_RECORD_BYTES } from '../src/common/input-limits.js';
import { data, httpTransport, register } from './game-client/index.js';
import { startDatabase } from './database.js';
import { cleanUp, log, stopOnSignals } from './lifecycle.js';
import { longBiddingRecord } from './long-record.js';
import { summarise, type LatencySummary } from './measure.js';
import { startServer } from './server.js';

const { values } = parseArgs({
  options: {
    imports: { type: 'string', default: '6' },
    importers: { type: 'string', default: '1' },
    interval: { type: 'string', default: '20' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(`npm run bench:import -- [--imports N (per importer, default 6)] [--importers N (default 1)] [--interval MS (default 20)]\n`);
  process.exit(0);
}
const imports = Number(values.imports);
const importers = Number(values.importers);
const interval = Number(values.interval);
if (![imports, importers, interval].every((n) => Number.isInteger(n) && n >= 1)) {
  process.stderr.write('--imports, --importers and --interval take whole numbers ≥ 1\n');
  process.exit(2);
}

const ms = (s: LatencySummary) => `p50 ${s.p50.toFixed(1)}  p99 ${s.p99.toFixed(1)}  max ${s.max.toFixed(1)} ms`;

/** GET /health every `interval` ms until `stop()`; the latencies. */
function healthProbe(url: string) {
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const r = await fetch(`${url}/health`);
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`/health answered ${r.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

stopOnSignals();
try {
  const database = await startDatabase();
  log(database.description);
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  const client = httpTransport(server.url, { sockets: importers + 1 });
  const players = await Promise.all(
    Array.from({ length: importers }, async (_, i) => data(await register(client, `imp${Date.now().toString(36)}${i}`), 'register')),
  );
  // Records of their own (a repeat would be answered with the first game), made before measuring.
  const records = players.map((p, i) =>
    Array.from({ length: imports }, (_, n) => longBiddingRecord(MAX_RECORD_BYTES - 4096, `bench-${i}-${n}`, [p.player.name, 'x', 'y'])),
  );
  const sample = records[0][0];
  process.stdout.write(
    `\nrecord: ${JSON.stringify(sample).length} bytes, ${sample.deals.length} deals, ` +
      `${sample.deals.reduce((a, d) => a + d.moves.length, 0)} moves; ${importers} importer(s) × ${imports} imports back to back\n` +
      `machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; server ${server.mode}, Node ${server.node}\n\n`,
  );

  const idle = healthProbe(server.url);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const alone = await idle.stop();

  const during = healthProbe(server.url);
  const cpuBefore = await server.cpuMs();
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    players.map(async (p, i) => {
      for (const record of records[i]) {
        const t0 = performance.now();
        const r = await fetch(`${server.url}/api/v1/games/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
          body: JSON.stringify(record),
        });
        const body = await r.text();
        if (r.status !== 201) throw new Error(`import answered ${r.status}: ${body.slice(0, 300)}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  const wall = performance.now() - started;
  const cpuAfter = await server.cpuMs();
  const busy = await during.stop();
  const n = importers * imports;
  const cpu = cpuBefore && cpuAfter ? `${((cpuAfter.total - cpuBefore.total) / n).toFixed(0)} ms` : 'n/a';
  process.stdout.write(
    `imports: ${n} in ${(wall / 1000).toFixed(1)} s; each ${ms(summarise(times))}; server CPU per import ${cpu} (all threads)\n` +
      `GET /health alone:           ${ms(summarise(alone))} (${alone.length} requests)\n` +
      `GET /health during imports:  ${ms(summarise(busy))} (${busy.length} requests)\n` +
      `server memory after: ${JSON.stringify(await server.health())}\n`,
  );
  await server.stop();
} finally {
  await cleanUp();
}
