// Issue 5, "Tests": the real server process (node dist/apps/api/src/main.js) is killed with
// SIGKILL at random moments while moves are in flight and started again. Every move that got a
// successful answer is in the event log, the versions are contiguous, the game goes on where it
// was and can be played to the end. And with the embedded PostgreSQL (no DATABASE_URL), a player
// registered before a kill can still use their token after the restart.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '@mizerka/rules';
import { withClient } from '../../apps/api/src/database/with-client.js';
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
import { kill, startServer } from './server-process.js';
import { wsTransport, type WsTransport } from '../../apps/api/bench/game-client/index.js';


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
  /** The game's version when the move was sent. */
  version: number;
}

/** The game's last move (not a deal) as stored, with the idempotency key it was made under. */
async function lastMoveEntry(url: string, gameId: string): Promise<{ seq: number; move: unknown; idempotencyKey: string | null } | null> {
  return withClient(url, async (client) => {
    const { rows } = await client.query(
      `SELECT seq, move, idempotency_key FROM game_events WHERE game_id = $1 AND kind <> 'deal' ORDER BY seq DESC LIMIT 1`,
      [gameId],
    );
    return rows[0] ? { seq: rows[0].seq, move: rows[0].move, idempotencyKey: rows[0].idempotency_key } : null;
  });
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
    // Each player's graphql-ws socket, as a client holds one for its subscriptions: a move over it
    // must be kept as surely as one over HTTP.
    const sockets = (): WsTransport => wsTransport(server.url, { ...h, close: () => undefined });
    let ws = sockets();
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
      /**
       * Moves as fast as the seats can: each move sent four times at once (idempotent twins over
       * HTTP and over the socket, and one with expectedVersion).
       */
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
            { via: 'ws twin', input: { gameId, idempotencyKey: key, ...move } },
            { via: 'gql expectedVersion', input: { gameId, expectedVersion: turn.version, ...move } },
          ];
          const settled = await Promise.allSettled(attempts.map((a) => (a.via === 'ws twin' ? ws : h).gql<any>(MAKE_MOVE, { input: a.input }, token)));
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
                const refusedAfterSibling = siblingMoved && attempts[i].via !== 'gql expectedVersion' && (code === 'NOT_YOUR_TURN' || code === 'ILLEGAL_MOVE');
                // Losing to one's own twin is CONFLICT; anything else (INTERNAL, …) is a failure.
                if (code !== 'CONFLICT' && !refusedAfterSibling) throw new Error(`unexpected answer ${JSON.stringify(s.value.errors)}`);
              }
            }
          });
          if (!answered || settled.some((s) => s.status === 'rejected')) unknowns.push({ seat: turn.seat, move, key, version: turn.version });
        }
      })();
      await sleep(150 + random(900));
      await kill(server, 'SIGKILL');
      dead = true;
      await mover;

      await ws.close();
      server = await startServer({ DATABASE_URL: databaseUrl });
      h = http(server.url, { timeoutMs: 20_000, retryReset: false });
      ws = sockets();

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
          // Refused: the move was never made and it is no longer this seat's turn, or it was made
          // by the request without a key (its answer lost with the kill), which the key cannot know
          // of: the seat may then be to move again (it won the trick). Never made under this key:
          // that retry must have been answered with the first result.
          const answer = JSON.stringify(retry.errors);
          const made = await lastMoveEntry(databaseUrl, gameId);
          const madeHere = made !== null && made.seq > last.version && isDeepStrictEqual(made.move, recordMoveOf(last.seat, last.move));
          if (madeHere) {
            console.info(`[restart] the unanswered move was made without its key; the keyed retry: ${answer}`);
            expect(made.idempotencyKey, answer).toBeNull();
            expect(['NOT_YOUR_TURN', 'ILLEGAL_MOVE'], answer).toContain(retry.errors?.[0]?.extensions?.code);
          } else {
            expect(g.view.toMove, answer).not.toBe(last.seat);
          }
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
    expect(successes.some((s) => s.via === 'ws twin'), 'some move was answered over the socket').toBe(true);
    await ws.close();
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
