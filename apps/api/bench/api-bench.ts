/**
 * npm run bench:api — many games played at once through GraphQL over HTTP (`--help` lists the
 * options and their defaults; apps/api/bench/README.md says what is measured and how).
 *
 * The parts: options.ts (the command line), database.ts (PostgreSQL, embedded or DATABASE_URL,
 * and the bare-commit floor), server.ts (the server process: spawn, readiness, CPU), players.ts
 * (the load generator, playing through the shared game client in game-client/), measure.ts
 * (latencies, CPU and PostgreSQL probes), report.ts (the tables and the JSON), lifecycle.ts
 * (log, Ctrl-C, clean-up). This file runs them in order: database, server, games, then per level
 * the moves and the commits, then the report. With --correspondence each level is also played on
 * timed games whose players have webhook endpoints at a receiver in this process
 * (webhook-receiver.ts), after the untimed one.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createCommitTable, postgresCpuReader, postgresSettings, runCommitLevel, startDatabase, statsReader } from './database.js';
import { httpTransport, wsTransport } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { makeProbes } from './measure.js';
import { runInstances } from './instances.js';
import { parseOptions, usage, UsageError, type Options } from './options.js';
import { runMoveLevel, setUpGames, type Game } from './players.js';
import { fmt, report, writeJson, type LevelResult } from './report.js';
import { startServer } from './server.js';
import { drainWebhooks, registerEndpoints, startWebhookReceiver, webhookStages, type WebhookReceiver } from './webhook-receiver.js';

async function main(options: Options) {
  const started = Date.now();
  const loadavgStart = loadavg();
  stopOnSignals();
  // --instances / --workers: one instance against several, in instances.ts.
  if (options.instances > 1 || options.workers > 1) return runInstances(options);

  const database = await startDatabase();
  const settings = await postgresSettings(database.url);
  // --correspondence: the webhook receiver is this process, on http://127.0.0.1.
  const server = await startServer(database.url, { ...options, env: options.correspondence ? { WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true' } : {} });
  log(`server at ${server.url}: ${server.mode}`);

  const maxLevel = Math.max(...options.levels);
  const client = httpTransport(server.url, { sockets: maxLevel + 16 });
  onCleanUp('close the HTTP agent', async () => client.close());
  const setupStart = performance.now();
  log(`setting up ${maxLevel} games (${options.preset})`);
  const games = await setUpGames(client, maxLevel, options.preset, options.seed);
  // --correspondence: as many games again, each with a move clock far longer than the run and
  // every player with one webhook endpoint (all event types) at the receiver in this process.
  let timed: { games: Game[]; receiver: WebhookReceiver } | null = null;
  if (options.correspondence) {
    const receiver = await startWebhookReceiver();
    onCleanUp('close the webhook receiver', () => receiver.close());
    log(`setting up ${maxLevel} timed games (${options.clockSeconds} s per move) and their players' webhook endpoints`);
    const timedGames = await setUpGames(client, maxLevel, options.preset, options.seed, { moveSeconds: options.clockSeconds, onTimeout: 'autoMove' });
    await registerEndpoints(client, timedGames.flatMap((g) => g.tokens), receiver.url);
    timed = { games: timedGames, receiver };
  }
  const setupSeconds = (performance.now() - setupStart) / 1000;
  log(`set up in ${fmt(setupSeconds, 1)} s`);

  await createCommitTable(database.url);
  const probes = makeProbes({
    counters: await statsReader(database.url),
    serverCpu: () => server.cpuMs(),
    postgresCpu: await postgresCpuReader(database.url),
  });
  const results: LevelResult[] = [];
  for (const level of options.levels) {
    if (interrupted()) break;
    log(`level ${level}: ${options.warmup} s warm-up, then ${options.seconds} s of moves`);
    const moves = await runMoveLevel(client, games.slice(0, level), options, probes);
    if (interrupted()) break;
    log(`level ${level}: ${fmt(moves.movesPerSecond, 0)} moves/s, p99 ${fmt(moves.latencyMs.p99, 2)} ms`);
    let correspondence: LevelResult['correspondence'];
    if (timed) {
      log(`level ${level}, timed games with webhooks: ${options.warmup} s warm-up, then ${options.seconds} s of moves`);
      const from = Date.now() + options.warmup * 1000;
      const timedMoves = await runMoveLevel(client, timed.games.slice(0, level), options, probes);
      const to = Date.now();
      const drain = await drainWebhooks(database.url, timed.receiver, 120);
      if (interrupted()) break;
      const webhooks = timed.receiver.stats(from, to);
      // The deliveries of the level's moves were done when the last one arrived.
      const drainSeconds = Math.max(0, (timed.receiver.lastArrival() - to) / 1000);
      correspondence = {
        moves: timedMoves,
        webhooks,
        stages: await webhookStages(database.url, from, to),
        drainSeconds,
        pendingAfterDrain: drain.pending,
        ratio: timedMoves.movesPerSecond / moves.movesPerSecond,
        sustainedRatio: timedMoves.moves / (timedMoves.seconds + drainSeconds) / moves.movesPerSecond,
      };
      log(`level ${level}, timed: ${fmt(timedMoves.movesPerSecond, 0)} moves/s (${fmt(correspondence.ratio, 2)} of untimed); ${webhooks.received} webhooks, lag p99 ${fmt(webhooks.lagMs.p99, 0)} ms`);
    }
    let ws: LevelResult['ws'];
    if (options.ws) {
      // The same games go on, every seat's requests now over its own socket.
      const sockets = wsTransport(server.url, client);
      log(`level ${level}, moves over each player's graphql-ws socket: ${options.warmup} s warm-up, then ${options.seconds} s of moves`);
      const wsMoves = await runMoveLevel(sockets, games.slice(0, level), options, probes);
      const open = sockets.sockets();
      await sockets.close();
      if (interrupted()) break;
      ws = { moves: wsMoves, sockets: open, ratio: wsMoves.movesPerSecond / moves.movesPerSecond };
      log(`level ${level}, over sockets: ${fmt(wsMoves.movesPerSecond, 0)} moves/s (${fmt(ws.ratio, 2)} of HTTP), p99 ${fmt(wsMoves.latencyMs.p99, 2)} ms`);
    }
    log(`level ${level}: now ${options.commitSeconds} s of bare commits`);
    const commits = await runCommitLevel(database.url, server.poolSize, level, { warmup: options.warmup, seconds: options.commitSeconds }, probes);
    results.push({ concurrency: level, moves, commits, ratio: moves.movesPerSecond / commits.commitsPerSecond, correspondence, ws });
  }

  const run = { options, started, server, database, postgres: settings, loadavgStart, loadavgEnd: loadavg(), setupSeconds };
  process.stdout.write(report(run, results));
  if (options.json) process.stdout.write(`JSON written to ${await writeJson(options.json, run, results)}\n`);
  log(`done in ${fmt((Date.now() - started) / 1000, 0)} s`);
}

let options: Options | null;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`api-bench: ${error.message}\n(npm run bench:api -- --help lists the options)\n`);
  process.exit(2);
}
if (options === null) {
  process.stdout.write(usage());
  process.exit(0);
}

main(options)
  .catch((error: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`api-bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  })
  .finally(async () => {
    await cleanUp();
    // Anything left (keep-alive sockets, timers) must not keep the process alive.
    process.exit(process.exitCode ?? (interrupted() ? 130 : 0));
  });
