import {
  apply,
  currentPlayer,
  dealIndex,
  endGame,
  gameEnd,
  legalMoves,
  makeRules,
  moveToJson,
  newGame,
  outcome,
  phase,
  placesOf,
  type GameEvent,
  type GameState,
  type Move,
} from '@mizerka/rules';
import { describe, expect, it } from 'vitest';
import { dealFresh, type NewDeal } from './dealing.js';
import { dealEntry, packed, projectCommit, type EntryRow, type GameMoveCommit, type LogEntry } from './game-commit.js';
import { gameCommitCopy, gameCommitSql, type GameCopyRows } from './game-commit.sql.js';
import { startClock, type GameClock } from './time-control.js';

// The projection of every kind of game write, without a database: what rows, outbox job and feed
// events each commit makes.

const SEATS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c'];
const GAME = '00000000-0000-4000-8000-0000000000ff';
const NOW = new Date('2026-12-01T12:00:00.000Z');

function rulesOf(preset: string) {
  const made = makeRules(preset);
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
}

/** The first legal move of the seat to move (the same every run). */
function firstMove(state: GameState): Move {
  const legal = legalMoves(state)!;
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', seat: legal.seat, contract: legal.contracts[0] };
    case 'exchange':
      return { kind: 'exchange', seat: legal.seat, discards: [] };
    case 'bid':
      return { kind: 'bid', seat: legal.seat, bid: legal.bids[0] };
    case 'discard':
      return { kind: 'discard', seat: legal.seat, cards: legal.cards.slice(0, legal.count) };
    case 'trump':
      return { kind: 'trump', seat: legal.seat, suit: legal.suits[0] };
    case 'play':
      return { kind: 'play', seat: legal.seat, card: legal.cards[0] };
  }
}

/** A game in play: `version` log entries so far, its state, as the move path keeps it. */
interface Played {
  version: number;
  state: GameState;
}

function started(preset = 'short', seed = 'a'.repeat(32)): { first: NewDeal; game: Played } {
  const first = dealFresh(newGame(rulesOf(preset), 0), seed);
  return { first, game: { version: 1, state: first.state } };
}

/** The commit of `move` (or an end) on `game`, planned as MovesService plans it. */
function commitOf(game: Played, seat: number, action: Move | { end: 'resigned' | 'forfeit' }, options: { clock?: GameClock | null; system?: boolean } = {}): GameMoveCommit {
  const ending = 'end' in action;
  const applied = ending ? endGame(game.state, { seat, reason: action.end }) : apply(game.state, action);
  if (!applied.ok) throw new Error(applied.error.rule);
  const entries: LogEntry[] = [
    {
      seq: game.version + 1,
      kind: ending ? 'end' : action.kind,
      dealIndex: dealIndex(game.state),
      seat,
      playerId: SEATS[seat],
      actor: options.system ? 'system' : 'player',
      cause: options.system ? (ending ? 'forfeit' : 'timeout') : ending ? 'resigned' : null,
      move: ending ? null : moveToJson(action),
      events: applied.value.events,
      idempotencyKey: null,
      requestHash: null,
      response: null,
    },
  ];
  let state = applied.value.state;
  const next = phase(state) === 'dealing' && !gameEnd(state) ? dealFresh(state, 'b'.repeat(32)) : null;
  if (next) {
    state = next.state;
    entries.push(dealEntry(game.version + 2, next));
  }
  return {
    type: 'move',
    gameId: GAME,
    readVersion: game.version,
    entries,
    next,
    state,
    now: NOW,
    clock: options.clock ?? null,
    seats: SEATS,
    serverBots: [false, false, false],
    timedOut: options.system ? { seat, action: ending ? 'forfeit' : 'autoMove' } : null,
  };
}

/** Plays first moves from `game` until `until` holds for a commit's events; that commit. */
function playUntil(game: Played, until: (events: GameEvent[]) => boolean): { commit: GameMoveCommit; before: Played } {
  for (let i = 0; i < 10_000; i++) {
    const commit = commitOf(game, currentPlayer(game.state)!, firstMove(game.state));
    if (until(commit.entries.flatMap((e) => e.events))) return { commit, before: game };
    game = { version: commit.entries.at(-1)!.seq, state: commit.state };
  }
  throw new Error('never happened');
}

const has = (type: GameEvent['type']) => (events: GameEvent[]) => events.some((e) => e.type === type);
const rowsOf = <T>(rows: readonly T[] | string): readonly T[] => (typeof rows === 'string' ? (JSON.parse(rows) as T[]) : rows);

describe('projectCommit', () => {
  it('a start: the game, its seats, the first deal as entry 1, its outbox job and everyone’s gameStarted, the first seat’s yourTurn', () => {
    const { first } = started();
    const clock = startClock({ moveSeconds: 60, bankSeconds: 0, onTimeout: 'forfeit', maxTimeouts: 3 }, 3, currentPlayer(first.state), NOW);
    const p = projectCommit({ type: 'start', gameId: GAME, lobbyId: null, preset: 'short', options: {}, firstDealer: 0, seats: SEATS, rated: true, first, clock, now: NOW });
    expect(p.gameUpdate).toBeNull();
    expect(p.gameInsert).toMatchObject({ id: GAME, status: 'active', version: 1, players: 3, rated: true, totals: [0, 0, 0], turnDeadline: clock.deadline, createdAt: NOW });
    expect(p.seats.map((s) => [s.seat, s.playerId, s.place])).toEqual(SEATS.map((id, seat) => [seat, id, null]));
    expect(rowsOf(p.deals)).toEqual([expect.objectContaining({ index: 0, seed: first.seed, seedHash: first.seedHash, contract: null, finishedAt: null })]);
    expect(rowsOf(p.entries)).toEqual([expect.objectContaining({ seq: 1, kind: 'deal', actor: 'system', events: first.events, deadline: clock.deadline })]);
    const toMove = currentPlayer(first.state)!;
    expect(p.outbox).toEqual({ gameId: GAME, seq: 1, entries: [{ type: 'turnBegan', seat: toMove, playerId: SEATS[toMove], deadline: clock.deadline!.toISOString() }] });
    expect(p.feed.filter((f) => f.type === 'gameStarted').map((f) => f.playerId)).toEqual(SEATS);
    expect(p.feed.filter((f) => f.type === 'yourTurn')).toEqual([
      expect.objectContaining({ playerId: SEATS[toMove], seq: 1, payload: { gameId: GAME, seq: 1, seat: toMove, deadline: clock.deadline!.toISOString(), preset: 'short' } }),
    ]);
  });

  it('a move: the guarded update, its entry, no deal change, and the next seat’s turn; nothing queued for a person’s untimed turn', () => {
    const { game } = started();
    const commit = commitOf(game, currentPlayer(game.state)!, firstMove(game.state));
    const p = projectCommit(commit);
    expect(p.gameInsert).toBeNull();
    expect(p.gameUpdate).toMatchObject({ readVersion: 1, version: 2, totals: null, winners: null, end: null, clock: null });
    expect(rowsOf(p.entries)).toEqual([expect.objectContaining({ seq: 2, playerId: SEATS[commit.entries[0].seat!], createdAt: NOW, deadline: null })]);
    expect([rowsOf(p.deals), rowsOf(p.tricks), p.standings, p.seats]).toEqual([[], [], [], []]);
    expect(p.outbox).toBeNull();
    const next = currentPlayer(commit.state)!;
    expect(p.feed).toEqual([expect.objectContaining({ type: 'yourTurn', playerId: SEATS[next], seq: 2 })]);
  });

  it('a trick taken: its row in the move’s deal', () => {
    const { commit } = playUntil(started().game, has('trickTaken'));
    const trick = commit.entries[0].events.find((e) => e.type === 'trickTaken')!;
    expect(rowsOf(projectCommit(commit).tricks)).toEqual([
      expect.objectContaining({ dealIndex: commit.entries[0].dealIndex, index: trick.type === 'trickTaken' ? trick.trick : -1 }),
    ]);
  });

  it('a deal end: its result on the deal’s row, the totals, the next deal dealt in the same commit, dealFinished queued', () => {
    const { commit } = playUntil(started().game, has('dealScored'));
    const p = projectCommit(commit);
    const scored = commit.entries[0].events.find((e) => e.type === 'dealScored')!;
    if (scored.type !== 'dealScored') throw new Error('not scored');
    const result = outcome(commit.state).deals[commit.entries[0].dealIndex];
    expect(p.dealUpdate).toEqual({
      index: commit.entries[0].dealIndex,
      columns: expect.objectContaining({ tricks: scored.tricks, scores: scored.scores, finished: true, ...('contract' in result ? { contract: result.contract } : {}) }),
    });
    expect(p.gameUpdate?.totals).toEqual(scored.totals);
    expect(rowsOf(p.deals)).toEqual([expect.objectContaining({ index: commit.next!.index, seed: commit.next!.seed, startedAt: null })]);
    expect(rowsOf(p.entries).map((e: EntryRow) => [e.seq, e.kind])).toEqual([
      [commit.readVersion + 1, commit.entries[0].kind],
      [commit.readVersion + 2, 'deal'],
    ]);
    expect(p.outbox?.entries).toContainEqual({ type: 'dealFinished', deal: commit.entries[0].dealIndex });
    expect(p.version).toBe(commit.readVersion + 2);
  });

  it('a game end: finished with winners, standings by place, gameFinished for everyone and queued', () => {
    const { commit } = playUntil(started().game, has('gameOver'));
    const p = projectCommit(commit);
    const over = commit.entries.flatMap((e) => e.events).find((e) => e.type === 'gameOver')!;
    if (over.type !== 'gameOver') throw new Error('not over');
    const places = placesOf(over.totals, null);
    expect(p.gameUpdate).toMatchObject({ winners: over.winners, toMove: null, end: null });
    expect(p.standings).toEqual(over.totals.map((total, seat) => ({ seat, total, place: places[seat] })));
    expect(rowsOf(p.deals)).toEqual([]);
    expect(p.feed.map((f) => [f.type, f.playerId])).toEqual(SEATS.map((id) => ['gameFinished', id]));
    expect(p.outbox?.entries).toContainEqual({ type: 'gameFinished', totals: over.totals, places, winners: over.winners, end: null });
  });

  it('a resignation: the end entry, the resigning seat last, no turn for anyone', () => {
    const { game } = started();
    const p = projectCommit(commitOf(game, 1, { end: 'resigned' }));
    expect(rowsOf(p.entries)).toEqual([expect.objectContaining({ kind: 'end', seat: 1, cause: 'resigned', move: null })]);
    expect(p.gameUpdate).toMatchObject({ end: { seat: 1, reason: 'resigned' }, toMove: null });
    expect(p.standings.find((s) => s.seat === 1)?.place).toBe(3);
    expect(p.feed.some((f) => f.type === 'yourTurn')).toBe(false);
    expect(p.feed.filter((f) => f.type === 'gameFinished')).toHaveLength(3);
  });

  it('a forfeit for a seat out of time: the system’s end entry, timedOut for everyone, the clock written', () => {
    const { game } = started();
    const seat = currentPlayer(game.state)!;
    const clock: GameClock = {
      control: { moveSeconds: 60, bankSeconds: 0, onTimeout: 'forfeit', maxTimeouts: 3 },
      turnStartedAt: null,
      deadline: null,
      bankMs: [0, 0, 0],
      timeouts: [0, 0, 0].map((_, s) => (s === seat ? 1 : 0)),
    };
    const p = projectCommit(commitOf(game, seat, { end: 'forfeit' }, { clock, system: true }));
    expect(rowsOf(p.entries)).toEqual([expect.objectContaining({ kind: 'end', actor: 'system', cause: 'forfeit', playerId: SEATS[seat] })]);
    expect(p.gameUpdate).toMatchObject({ end: { seat, reason: 'forfeit' }, clock: { turnStartedAt: null, bankMs: [0, 0, 0], timeouts: clock.timeouts } });
    expect(p.feed.filter((f) => f.type === 'timedOut')).toEqual(
      SEATS.map((playerId) =>
        expect.objectContaining({ playerId, payload: { gameId: GAME, seq: 2, seat, playerId: SEATS[seat], action: 'forfeit', consecutive: 1 } }),
      ),
    );
  });

  it('an import: the finished game whole, the deals’ facts and tricks from its log, only the importer’s seat, nothing queued', () => {
    const { first, game } = started();
    let played = game;
    const entries = [{ ...dealEntry(1, first), createdAt: null, deadline: null }];
    for (;;) {
      const commit = commitOf(played, currentPlayer(played.state)!, firstMove(played.state));
      entries.push(...commit.entries.map((e) => ({ ...e, playerId: e.seat === 2 ? SEATS[2] : null, createdAt: null, deadline: null })));
      played = { version: commit.entries.at(-1)!.seq, state: commit.state };
      if (phase(played.state) === 'over') break;
    }
    const result = outcome(played.state);
    const deals = entries.filter((e) => e.kind === 'deal');
    const p = projectCommit({
      type: 'archive',
      gameId: GAME,
      lobbyId: null,
      preset: 'short',
      options: {},
      firstDealer: 0,
      seats: [null, null, SEATS[2]],
      state: played.state,
      entries,
      deals: deals.map(() => ({ dealer: 0, seed: null, deck: ['x'], seedHash: 'h'.repeat(64), startedAt: null })),
      totals: result.totals,
      winners: result.winners,
      end: null,
      rated: false,
      ratedAt: null,
      timeControl: null,
      clock: null,
      imported: { by: SEATS[2], seatNames: ['ala', 'ola', 'me'], seatBots: [], hash: 'f'.repeat(64) },
      record: '{"format":"mizerka-record/1"}',
      createdAt: NOW,
      finishedAt: NOW,
    });
    expect(p.gameInsert).toMatchObject({ status: 'finished', version: entries.length, importedBy: SEATS[2], importHash: 'f'.repeat(64), toMove: null });
    expect(p.seats).toEqual([{ seat: 2, playerId: SEATS[2], total: result.totals[2], place: placesOf(result.totals, null)[2], createdAt: NOW }]);
    const rows = rowsOf(packed(p).deals);
    expect(rows).toHaveLength(deals.length);
    rows.forEach((d, i) => {
      const r = result.deals[i];
      expect(d).toMatchObject({ index: i, finishedAt: NOW.toISOString(), scores: 'scores' in r ? r.scores : expect.anything() });
      if ('contract' in r) expect(d.contract).toBe(r.contract);
    });
    expect(rowsOf(p.tricks).length).toBe(entries.flatMap((e) => e.events).filter((e) => e.type === 'trickTaken').length);
    expect([p.outbox, p.feed, p.record]).toEqual([null, [], '{"format":"mizerka-record/1"}']);
  });
});

describe('gameCommitSql', () => {
  it('hangs every part of a move off the guarded update, and its text depends on the parts, not the rows', () => {
    const { commit } = playUntil(started().game, has('dealScored'));
    const sql = gameCommitSql(projectCommit(commit));
    expect(sql.text).toMatch(/^WITH g AS \(UPDATE games SET .* WHERE id = \$\d+::uuid AND version = \$\d+::int/s);
    for (const part of ['INSERT INTO deals', 'UPDATE deals', 'INSERT INTO game_events', 'INSERT INTO outbox', 'INSERT INTO player_events']) {
      expect(sql.text).toContain(part);
    }
    expect(sql.text).toMatch(/SELECT count\(\*\)::int AS applied, pg_current_xact_id\(\)::text AS tx FROM g$/);
    const { game } = started();
    const one = gameCommitSql(projectCommit(commitOf(game, currentPlayer(game.state)!, firstMove(game.state))));
    const other = started('short', 'c'.repeat(32)).game;
    expect(gameCommitSql(projectCommit(commitOf(other, currentPlayer(other.state)!, firstMove(other.state)))).text).toBe(one.text);
  });

  it('writes an import once per record and importer', () => {
    const { first } = started();
    const start = projectCommit({ type: 'start', gameId: GAME, lobbyId: null, preset: 'short', options: {}, firstDealer: 0, seats: SEATS, rated: false, first, clock: null, now: NOW });
    expect(gameCommitSql(start).text).not.toContain('ON CONFLICT (imported_by');
    const imported = { ...start, gameInsert: { ...start.gameInsert!, importedBy: SEATS[0], importHash: 'f'.repeat(64) } };
    expect(gameCommitSql(imported).text).toContain('ON CONFLICT (imported_by, import_hash) DO NOTHING');
  });
});

describe('gameCommitCopy', () => {
  it('writes a game whole as COPY lines, one per row, and refuses a move or a commit with followers', () => {
    const { first, game } = started();
    const out: GameCopyRows = { games: [], gameSeats: [], deals: [], gameEvents: [], tricks: [], gameRecords: [] };
    const start = projectCommit({ type: 'start', gameId: GAME, lobbyId: null, preset: 'short', options: {}, firstDealer: 0, seats: SEATS, rated: false, first, clock: null, now: NOW });
    // A bulk load has no one to tell and nothing to queue: a projection that has is refused.
    expect(() => gameCommitCopy(start, out)).toThrow();
    gameCommitCopy({ ...start, outbox: null, feed: [] }, out);
    expect([out.games.length, out.gameSeats.length, out.deals.length, out.gameEvents.length]).toEqual([1, 3, 1, 1]);
    expect(out.games[0].split('\t')).toHaveLength(30);
    expect(out.gameEvents[0].split('\t')).toHaveLength(15);
    expect(() => gameCommitCopy(projectCommit(commitOf(game, currentPlayer(game.state)!, firstMove(game.state))), out)).toThrow();
  });
});
