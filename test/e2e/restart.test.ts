// Issue 5, "Tests": the real server process (node dist/apps/api/src/main.js) is killed with
// SIGKILL at random moments while moves are in flight and started again. Every move that got a
// successful answer is in the event log, the versions are contiguous, the game goes on where it
// was and can be played to the end. And with the embedded PostgreSQL (no DATABASE_URL), a player
// registered before a kill can still use their token after the restart.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '@mizerka/rules';
import { createTestDatabase } from '../database.js';
import {
  chooseMove,
  data,
  http,
  MAKE_MOVE,
  playGame,
  recordMoveOf,
  register,
  registerMany,
  restEventLog,
  rng,
  SCORE_SHEET_QUERY,
  seatTable,
  sleep,
  turnOf,
  type Http,
  type Player,
} from './clients.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A build of our own (not dist/, which others use), kept between runs and rebuilt when a source is newer.
const OUT = join(ROOT, 'node_modules', '.cache', 'mizerka-e2e', 'dist');
const MAIN = join(OUT, 'apps', 'api', 'src', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function build() {
  const sources = Math.max(newestSource(join(ROOT, 'apps')), newestSource(join(ROOT, 'libs')));
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs > sources) return;
  // tsc emits even when a file being edited elsewhere has a type error; what matters is main.js.
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', OUT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (!existsSync(MAIN)) throw new Error(`build failed: ${result.stdout}\n${result.stderr}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

/** Starts main.js and waits until it answers /health. */
async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited while starting:\n${output.join('')}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not come up in ${timeoutMs} ms:\n${output.join('')}`);
    }
    await sleep(150);
  }
  return { child, url, output, exited };
}

async function kill(server: Server, signal: NodeJS.Signals) {
  server.child.kill(signal);
  await server.exited;
}

beforeAll(() => {
  build();
}, 300_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Success {
  version: number;
  seat: number;
  move: Record<string, unknown>;
  via: string;
}
interface Unknown {
  seat: number;
  move: Record<string, unknown>;
  key: string;
}

describe('SIGKILL while moves are in flight (DATABASE_URL)', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  it('keeps every acknowledged move, contiguous versions, and the game plays on to the end', async () => {
    const random = rng(Number(process.env.E2E_SEED ?? 4242));
    let server = await startServer({ DATABASE_URL: databaseUrl });
    let h: Http = http(server.url, { timeoutMs: 20_000, retryReset: false });
    const players = await registerMany(h, 3, 'rk');
    const { gameId } = await seatTable(h, players, 'short', {});
    // Part of a game, calmly.
    await playGame(h, players, gameId, { seed: 1, maxMoves: 25 });

    const successes: Success[] = [];
    /** The seq of the log entry of a move answered with `version` (a deal dealt with it comes after). */
    const moveSeq = (entries: any[], version: number) => (entries[version - 1]?.kind === 'deal' ? version - 1 : version);

    for (let round = 0; round < 3; round++) {
      let dead = false;
      const unknowns: Unknown[] = [];
      /** Moves as fast as the seats can: each move sent three times at once (two idempotent twins and one with expectedVersion). */
      const mover = (async () => {
        while (!dead) {
          let turn;
          try {
            const g = data(await h.gql('query($id: ID!) { game(id: $id) { view { toMove } } }', { id: gameId }), 'game');
            turn = await turnOf(h, gameId, players[g.view.toMove]);
          } catch {
            return; // the server is gone
          }
          const move = chooseMove(turn.legal, random);
          const key = randomBytes(8).toString('hex');
          const token = players[turn.seat].token;
          const attempts = [
            { via: 'gql twin', input: { gameId, idempotencyKey: key, ...move } },
            { via: 'gql twin', input: { gameId, idempotencyKey: key, ...move } },
            { via: 'gql expectedVersion', input: { gameId, expectedVersion: turn.version, ...move } },
          ];
          const settled = await Promise.allSettled(attempts.map((a) => h.gql(MAKE_MOVE, { input: a.input }, token)));
          let answered = false;
          // The keyed twins and the expectedVersion request are different requests for the same move:
          // a twin that reads the game after the expectedVersion one moved it is refused by the rules
          // on the newer state (the seat's turn or card is gone), which is right, not a failure.
          const siblingMoved = settled.some((s, i) => attempts[i].via === 'gql expectedVersion' && s.status === 'fulfilled' && s.value.data?.makeMove);
          settled.forEach((s, i) => {
            if (s.status === 'fulfilled') {
              answered = true;
              if (s.value.data?.makeMove) {
                successes.push({ version: s.value.data.makeMove.version, seat: turn.seat, move, via: attempts[i].via });
              } else {
                const code = s.value.errors?.[0]?.extensions?.code;
                const refusedAfterSibling = siblingMoved && attempts[i].via === 'gql twin' && (code === 'NOT_YOUR_TURN' || code === 'ILLEGAL_MOVE');
                // Losing to one's own twin is CONFLICT; anything else (INTERNAL, …) is a failure.
                if (code !== 'CONFLICT' && !refusedAfterSibling) throw new Error(`unexpected answer ${JSON.stringify(s.value.errors)}`);
              }
            }
          });
          if (!answered || settled.some((s) => s.status === 'rejected')) unknowns.push({ seat: turn.seat, move, key });
        }
      })();
      await sleep(150 + random(900));
      await kill(server, 'SIGKILL');
      dead = true;
      await mover;

      server = await startServer({ DATABASE_URL: databaseUrl });
      h = http(server.url, { timeoutMs: 20_000, retryReset: false });

      // An in-flight move without an answer may or may not have been made: retrying with the
      // same key gives the first result, or makes it now; either way it is there exactly once.
      const last = unknowns.at(-1);
      if (last) {
        const g = data(await h.gql('query($id: ID!) { game(id: $id) { version view { toMove } } }', { id: gameId }), 'game');
        const retry = await h.gql(MAKE_MOVE, { input: { gameId, idempotencyKey: last.key, ...last.move } }, players[last.seat].token);
        if (retry.data?.makeMove) {
          successes.push({ version: retry.data.makeMove.version, seat: last.seat, move: last.move, via: 'retry after restart' });
          expect(retry.data.makeMove.version).toBeGreaterThanOrEqual(g.version);
        } else {
          // Only possible when the move was never made and it is no longer this seat's turn.
          expect(g.view.toMove).not.toBe(last.seat);
        }
      }

      const log = await restEventLog(h, gameId);
      expect(log.entries.map((e) => e.seq), 'versions are contiguous').toEqual(Array.from({ length: log.version }, (_, i) => i + 1));
      const game = data(await h.gql('query($id: ID!) { game(id: $id) { version status } }', { id: gameId }), 'game');
      expect(game.version).toBe(log.version);
      const acknowledged = Math.max(...successes.map((s) => s.version));
      expect(log.version, 'no acknowledged move is lost').toBeGreaterThanOrEqual(acknowledged);
      for (const s of successes) {
        const entry = log.entries[moveSeq(log.entries, s.version) - 1];
        expect(entry, `acknowledged move at version ${s.version} (${s.via})`).toBeDefined();
        expect(entry.seat).toBe(s.seat);
        expect(entry.kind).toBe(s.move.kind);
      }
      console.info(`[restart] round ${round}: killed at version ${log.version}, ${unknowns.length} move(s) in flight unanswered, ${successes.length} acknowledged so far`);
      if (game.status === 'finished') break;
    }
    expect(successes.length).toBeGreaterThan(0);

    // The game plays on from where it was, to its end.
    await playGame(h, players, gameId, { seed: 2 });
    const record = (await h.rest('GET', `/api/v1/games/${gameId}/record`)).body;
    const parsed = parseRecord(record);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    const replayed = replay(parsed.value);
    if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
    expect(replayed.value.outcome.finished).toBe(true);
    const sheet = data(await h.gql(SCORE_SHEET_QUERY, { id: gameId }), 'scoreSheet');
    expect(sheet.standings.map((s: any) => s.total)).toEqual(replayed.value.outcome.totals);

    // Every acknowledged move is the record's move at its place.
    const log = await restEventLog(h, gameId);
    const moveSeqs = log.entries.filter((e) => e.kind !== 'deal').map((e) => e.seq);
    const recordMoves = parsed.value.deals.flatMap((d) => d.moves);
    expect(recordMoves.length).toBe(moveSeqs.length);
    for (const s of successes) {
      const at = moveSeqs.indexOf(moveSeq(log.entries, s.version));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(recordMoves[at], `move acknowledged at version ${s.version}`).toEqual(recordMoveOf(s.seat, s.move));
    }
    await kill(server, 'SIGTERM');
  }, 600_000);
});

describe('restart with the embedded PostgreSQL (no DATABASE_URL)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'mizerka-e2e-data-'));
    // When run as root PostgreSQL runs as another user, which must be able to enter this folder.
    chmodSync(dataDir, 0o755);
  });
  afterAll(() => {
    // Stop a PostgreSQL the killed server may have left (its pid is in postmaster.pid).
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      try {
        if (pid > 0) process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a player registered before a SIGKILL still authenticates after the restart', async () => {
    const env = { DATA_DIR: dataDir };
    let server = await startServer(env, 180_000);
    let h = http(server.url);
    const player: Player = await register(h, 'em');
    expect(data(await h.gql('query { me { id } }', {}, player.token), 'me').id).toBe(player.id);
    await kill(server, 'SIGKILL');

    server = await startServer(env, 180_000);
    h = http(server.url);
    expect(data(await h.gql('query { me { id name } }', {}, player.token), 'me')).toEqual({ id: player.id, name: player.name });
    const me = await h.rest('GET', '/api/v1/me', undefined, player.token);
    expect(me.status).toBe(200);
    await kill(server, 'SIGTERM');
    expect(server.child.exitCode ?? server.child.signalCode).toBe(0);
  }, 400_000);
});
