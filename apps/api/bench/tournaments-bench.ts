/**
 * npm run bench:tournaments — a Swiss event of server bots at full speed, against the server in its
 * own process: `--players` (default 300) in tables of three, `--rounds` rounds, every seat a random
 * bot entered by the organiser's bot fill. For each round: how long its games took, and the round
 * transition: from the end of the round's last game (its finished_at) to the next round's games
 * committed (their created_at), the work of the gameFinished consumer that counts the last game,
 * finishes the round, pairs the next (Swiss, from the standings) and starts its games in one
 * transaction. Duplicate events are not wired yet. A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startDatabase } from './database.js';
import { data, httpTransport, register } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:tournaments -- [options]

A Swiss event of random server bots at full speed: time per round and per round transition.

  --players N   entrants, all bots (default 300)
  --rounds N    Swiss rounds (default 3)
  --preset P    a 3-player preset (default bidding)
  --target N    the bidding game's target (default 20: a short game)
  -h, --help    print this and exit
`;

const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'bidding' },
    target: { type: 'string', default: '20' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const players = Number(values.players);
const rounds = Number(values.rounds);
const preset = values.preset!;
const options = preset.startsWith('bidding') ? { target: Number(values.target) } : {};

interface RoundRow {
  number: number;
  games: number;
  first_created: Date;
  last_created: Date;
  last_finished: Date | null;
  finished: number;
}

async function main() {
  stopOnSignals();
  const database = await startDatabase();
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env: {} });
  log(`server at ${server.url}: ${server.mode}`);
  const client = httpTransport(server.url, { sockets: 4 });
  onCleanUp('close the HTTP agent', async () => client.close());
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanUp('close the monitoring connection', () => db.end());

  const token = data(await register(client, `org${Date.now().toString(36)}`), 'register').token;
  const started = performance.now();
  const made = data(
    await client.gql<{ createTournament: { id: string } }>(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name: 'bench swiss', preset, options, format: 'swiss', formatOptions: { rounds }, minPlayers: players, maxPlayers: players, botLevel: 'random', startsAt: new Date().toISOString() } },
      token,
    ),
    'createTournament',
  );
  const id = made.id;
  let last = '';
  for (;;) {
    if (interrupted()) return;
    const { rows } = await db.query<{ status: string; round: number }>('SELECT status, round FROM tournaments WHERE id = $1', [id]);
    const now = `${rows[0].status} round ${rows[0].round}`;
    if (now !== last) log(`${now} after ${fmt((performance.now() - started) / 1000, 1)} s`);
    last = now;
    if (rows[0].status === 'finished' || rows[0].status === 'cancelled') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await db.query<RoundRow>(
    `SELECT tg.round AS number, count(*)::int AS games, min(g.created_at) AS first_created, max(g.created_at) AS last_created,
            max(g.finished_at) AS last_finished, count(g.finished_at)::int AS finished
       FROM tournament_games tg JOIN games g ON g.id = tg.game_id WHERE tg.tournament_id = $1 GROUP BY tg.round ORDER BY tg.round`,
    [id],
  );
  const out = [`tournaments-bench: a Swiss of ${players} random bots in tables of 3, ${rounds} rounds, ${preset}${options.target ? ` to ${options.target}` : ''}; ${fmt(seconds, 1)} s in all`];
  rows.forEach((r, i) => {
    const playMs = r.last_finished ? r.last_finished.getTime() - r.first_created.getTime() : NaN;
    const startMs = r.last_created.getTime() - r.first_created.getTime();
    let line = `  round ${r.number}: ${r.games} games (${r.finished} finished), games written in ${fmt(startMs, 0)} ms, round played in ${fmt(playMs / 1000, 1)} s`;
    const next = rows[i + 1];
    if (next && r.last_finished) line += `; transition (last game's end → round ${next.number}'s games committed) ${fmt(next.last_created.getTime() - r.last_finished.getTime(), 0)} ms`;
    out.push(line);
  });
  process.stdout.write(`${out.join('\n')}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`tournaments-bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanUp();
    process.exit(process.exitCode ?? (interrupted() ? 130 : 0));
  });
