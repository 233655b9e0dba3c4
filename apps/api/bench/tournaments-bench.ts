/**
 * npm run bench:tournaments — tournaments of server bots at full speed, against the server in its
 * own process, every seat a random bot entered by the organiser's bot fill. Two parts, `--only`
 * picks one:
 *
 * - swiss: `--players` (default 300) in tables of three, `--rounds` rounds. For each round: how
 *   long its games took, and the round transition: from the end of the round's last game (its
 *   finished_at) to the next round's games committed (their created_at), the work of the
 *   gameFinished consumer that counts the last game, finishes the round, pairs the next (Swiss,
 *   from the standings) and starts its games in one transaction.
 * - duplicate: `--duplicate-players` (default 30) over `--boards` boards (default 12; round n plays
 *   board n). The same per round, plus the board's release: from its last game's end to the
 *   board's released_at (cards and comparison shown; the same transaction that starts the next
 *   round), and the whole event's duration.
 *
 * A script that prints figures, not a test.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startDatabase } from './database.js';
import { data, httpTransport, register, type HttpTransport } from './game-client/index.js';
import { cleanUp, interrupted, log, onCleanUp, stopOnSignals } from './lifecycle.js';
import { fmt } from './report.js';
import { startServer } from './server.js';

const USAGE = `npm run bench:tournaments -- [options]

Tournaments of random server bots at full speed: time per round, per round transition, per board
release (duplicate) and the whole event. Swiss first, then duplicate, unless --only picks one.

  --only PART              swiss or duplicate (default both)
  --players N              Swiss entrants, all bots (default 300)
  --rounds N               Swiss rounds (default 3)
  --duplicate-players N    duplicate entrants, all bots (default 30)
  --boards N               duplicate boards = rounds (default 12)
  --preset P               a 3-player preset (default bidding)
  --target N               the bidding game's target (default 20: a short game)
  -h, --help               print this and exit
`;

type Format = 'swiss' | 'duplicate';

function usageError(message: string): never {
  process.stderr.write(`tournaments-bench: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string' },
        players: { type: 'string', default: '300' },
        rounds: { type: 'string', default: '3' },
        'duplicate-players': { type: 'string', default: '30' },
        boards: { type: 'string', default: '12' },
        preset: { type: 'string', default: 'bidding' },
        target: { type: 'string', default: '20' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
}
const { values } = parse();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function count(name: string, value: string, least: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < least) usageError(`--${name} must be a whole number of at least ${least}, not ${value}`);
  return n;
}
if (values.only !== undefined && values.only !== 'swiss' && values.only !== 'duplicate') usageError(`--only must be swiss or duplicate, not ${values.only}`);
const parts: Format[] = values.only ? [values.only as Format] : ['swiss', 'duplicate'];
const players = count('players', values.players, 3);
const rounds = count('rounds', values.rounds, 1);
// Duplicate compares a board across tables: two tables at least.
const duplicatePlayers = count('duplicate-players', values['duplicate-players'], 6);
const boards = count('boards', values.boards, 1);
const preset = values.preset;
const options = preset.startsWith('bidding') ? { target: count('target', values.target, 1) } : {};

interface RoundRow {
  number: number;
  games: number;
  first_created: Date;
  last_created: Date;
  last_finished: Date | null;
  finished: number;
  released: Date | null;
}

/** One event from creation to its end; returns the lines of its report. */
async function runEvent(client: HttpTransport, db: pg.Client, format: Format): Promise<string[]> {
  const entrants = format === 'swiss' ? players : duplicatePlayers;
  const roundCount = format === 'swiss' ? rounds : boards;
  const token = data(await register(client, `org${Date.now().toString(36)}`), 'register').token;
  const started = performance.now();
  const made = data(
    await client.gql<{ createTournament: { id: string } }>(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }`,
      { input: { name: `bench ${format}`, preset, options, format, formatOptions: { rounds: roundCount }, minPlayers: entrants, maxPlayers: entrants, botLevel: 'random', startsAt: new Date().toISOString() } },
      token,
    ),
    'createTournament',
  );
  const id = made.id;
  let last = '';
  for (;;) {
    if (interrupted()) return [];
    const { rows } = await db.query<{ status: string; round: number }>('SELECT status, round FROM tournaments WHERE id = $1', [id]);
    const now = `${format} ${rows[0].status} round ${rows[0].round}`;
    if (now !== last) log(`${now} after ${fmt((performance.now() - started) / 1000, 1)} s`);
    last = now;
    if (rows[0].status === 'finished' || rows[0].status === 'cancelled') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  // released_at is written by the transaction that counts the board's last game (duplicate only).
  const { rows } = await db.query<RoundRow>(
    `SELECT tg.round AS number, count(*)::int AS games, min(g.created_at) AS first_created, max(g.created_at) AS last_created,
            max(g.finished_at) AS last_finished, count(g.finished_at)::int AS finished, min(b.released_at) AS released
       FROM tournament_games tg JOIN games g ON g.id = tg.game_id
       LEFT JOIN tournament_boards b ON b.tournament_id = tg.tournament_id AND b.number = tg.board
      WHERE tg.tournament_id = $1 GROUP BY tg.round ORDER BY tg.round`,
    [id],
  );
  const { rows: event } = await db.query<{ started_at: Date | null; finished_at: Date | null }>('SELECT started_at, finished_at FROM tournaments WHERE id = $1', [id]);
  const name = format === 'swiss' ? `a Swiss of ${entrants} random bots in tables of 3, ${roundCount} rounds` : `a duplicate event of ${entrants} random bots in tables of 3 over ${roundCount} boards`;
  const out = [`tournaments-bench: ${name}, ${preset}${options.target ? ` to ${options.target}` : ''}; ${fmt(seconds, 1)} s in all`];
  const { started_at: startedAt, finished_at: finishedAt } = event[0];
  if (startedAt && finishedAt) out.push(`  event: started → finished in ${fmt((finishedAt.getTime() - startedAt.getTime()) / 1000, 1)} s`);
  const transitions: number[] = [];
  const releases: number[] = [];
  rows.forEach((r, i) => {
    const playMs = r.last_finished ? r.last_finished.getTime() - r.first_created.getTime() : NaN;
    const startMs = r.last_created.getTime() - r.first_created.getTime();
    let line = `  round ${r.number}: ${r.games} games (${r.finished} finished), games written in ${fmt(startMs, 0)} ms, round played in ${fmt(playMs / 1000, 1)} s`;
    if (r.released && r.last_finished) {
      const ms = r.released.getTime() - r.last_finished.getTime();
      releases.push(ms);
      line += `; board released ${fmt(ms, 0)} ms after its last game's end`;
    }
    const next = rows[i + 1];
    if (next && r.last_finished) {
      const ms = next.last_created.getTime() - r.last_finished.getTime();
      transitions.push(ms);
      line += `; transition (last game's end → round ${next.number}'s games committed) ${fmt(ms, 0)} ms`;
    }
    out.push(line);
  });
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `median ${fmt(s[Math.floor((s.length - 1) / 2)], 0)} ms, min ${fmt(s[0], 0)}, max ${fmt(s[s.length - 1], 0)} (${s.length})`;
  };
  if (transitions.length > 1) out.push(`  round transitions: ${spread(transitions)}`);
  if (releases.length > 1) out.push(`  board releases: ${spread(releases)}`);
  return out;
}

async function main() {
  stopOnSignals();
  const database = await startDatabase();
  // The bench's events are bots only, far past an organiser's MAX_TOURNAMENT_BOTS and open tournaments.
  const server = await startServer(database.url, { inProcess: false, cpuProfDir: null, serverNodeArgs: [], env: { MAX_TOURNAMENT_BOTS: '10000', MAX_OPEN_TOURNAMENTS_PER_PLAYER: '10000' } });
  log(`server at ${server.url}: ${server.mode}`);
  const client = httpTransport(server.url, { sockets: 4 });
  onCleanUp('close the HTTP agent', async () => client.close());
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanUp('close the monitoring connection', () => db.end());
  for (const format of parts) {
    if (interrupted()) return;
    const lines = await runEvent(client, db, format);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
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
