import type { TestApp } from '../../../../test/app.js';
import {
  apply,
  deal,
  makeRules,
  moveFromJson,
  newGame,
  parseCard,
  view,
  type GameRecord,
  type GameState,
} from '@mizerka/rules';
import { Outbox } from '../outbox/outbox.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GamesService } from './games.service.js';
import type { TimeControl } from './time-control.js';
export { EVENT_FIELDS, GAME_FIELDS, GAME_QUERY, SEAT_VIEW_FIELDS, type LegalMovesView } from '../../../../test/graphql-selections.js';
import { EVENT_FIELDS, SEAT_VIEW_FIELDS } from '../../../../test/graphql-selections.js';

/** Shared by the game, move and scoring tests: players, games started directly, and a move picker. */

export interface TestPlayer {
  id: string;
  name: string;
  token: string;
}

let counter = 0;

export async function players(t: TestApp, count: number, label = 'g'): Promise<TestPlayer[]> {
  const out: TestPlayer[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${label}${process.pid % 10_000}x${++counter}`.slice(0, 32);
    const { id, token } = await t.register(name);
    out.push({ id, name, token });
  }
  return out;
}

/** Lobbies are built elsewhere: start a game the way they will, inside a transaction. */
export async function startGame(
  t: TestApp,
  seated: TestPlayer[],
  preset: string,
  options: Record<string, unknown> = {},
  timeControl: TimeControl | null = null,
): Promise<string> {
  const games = t.app.get(GamesService);
  const { gameId, feed } = await t.app
    .get(PrismaService)
    .$transaction((tx) =>
      games.startGame(tx, { lobbyId: null, preset, options, seats: seated.map((p, seat) => ({ seat, playerId: p.id })), timeControl }),
    );
  t.app.get(PlayerEventsService).published(feed);
  t.app.get(Outbox).kick();
  return gameId;
}

export const MAKE_MOVE = `mutation($input: MakeMoveInput!) {
  makeMove(input: $input) { gameId version status events { ${EVENT_FIELDS} } game { ${SEAT_VIEW_FIELDS} } }
}`;

// The one seeded random player, shared with the end-to-end tests and the benchmark: a game
// replays from its seed, and every move is chosen among what the view offers.
import { chooseMove as pickMove, seededChance as rng } from '../../bench/game-client/index.js';
export { pickMove, rng };

export const TURN_QUERY = `query($id: ID!) {
  game(id: $id) { version status view { toMove legalMoves { kind seat contracts cards maxDiscards count bids suits } } }
}`;

export interface PlayedMove {
  mover: number;
  input: Record<string, unknown>;
  /** The makeMove payload: version, status, events, game (the mover's seat view). */
  result: Record<string, any>;
}

/**
 * Plays a game to its end over GraphQL: the player to move asks for their view and sends one of
 * the legal moves it offers. Returns every move with its result.
 */
export async function playThrough(
  t: TestApp,
  seated: TestPlayer[],
  gameId: string,
  seed: number,
  maxMoves = 2000,
): Promise<PlayedMove[]> {
  const random = rng(seed);
  const played: PlayedMove[] = [];
  let toMove: number | null = (await t.gql(TURN_QUERY, { id: gameId })).data!.game.view.toMove;
  while (toMove !== null && played.length < maxMoves) {
    const mover = seated[toMove];
    const turn = await t.gql(TURN_QUERY, { id: gameId }, mover.token);
    if (turn.errors) throw new Error(JSON.stringify(turn.errors));
    const input = { gameId, expectedVersion: turn.data!.game.version, ...pickMove(turn.data!.game.view.legalMoves, random) };
    const answer = await t.gql(MAKE_MOVE, { input }, mover.token);
    if (answer.errors) throw new Error(`move ${played.length} ${JSON.stringify(input)}: ${JSON.stringify(answer.errors)}`);
    const result = answer.data!.makeMove;
    played.push({ mover: toMove, input, result });
    toMove = result.status === 'finished' ? null : result.game.toMove;
  }
  return played;
}

/** Every card name quoted in a JSON document. */
export function cardNamesIn(json: unknown): Set<string> {
  return new Set([...JSON.stringify(json).matchAll(/"([2-9TJQKA][CDHS])"/g)].map((m) => m[1]));
}

/**
 * Ground truth for leak checks, from a finished game's record replayed with the rules library:
 * the state after each log entry (seq = version) and the cards played so far in its deal. What a
 * seat may know at version v: its own visible hand and discards, and the cards played this deal.
 */
export function knowledge(record: GameRecord): (version: number, seat: number | null) => Set<string> {
  const rules = makeRules(record.rules.preset, record.rules.options);
  if (!rules.ok) throw new Error(rules.error.message);
  const after: { state: GameState; played: string[] }[] = [];
  let state = newGame(rules.value, record.firstDealer);
  // The views keep showing the last trick of a deal until the next deal's first trick is taken.
  const trickSize = rules.value.family === 'bidding' ? 3 : rules.value.players;
  let lastTrick: string[] = [];
  for (const d of record.deals) {
    const dealt = deal(state, d.deck.map((c) => parseCard(c)!));
    if (!dealt.ok) throw new Error(dealt.error.message);
    state = dealt.value;
    const played: string[] = [];
    const carried = lastTrick;
    after.push({ state, played: [...carried] });
    for (const m of d.moves) {
      const move = moveFromJson(m);
      if (!move.ok) throw new Error(move.error.message);
      const next = apply(state, move.value);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
      if (m.play) played.push(m.play);
      after.push({ state, played: played.length < trickSize ? [...carried, ...played] : [...played] });
    }
    lastTrick = played.slice(-trickSize);
  }
  return (version, seat) => {
    const at = after[version - 1];
    if (!at) throw new Error(`no entry ${version}`);
    const known = new Set(at.played);
    if (seat !== null) {
      const seen = view(at.state, seat);
      for (const c of [...(seen.hand ?? []), ...(seen.discards ?? [])]) known.add(c);
    }
    return known;
  };
}

/** The card names in `json` that are not in `known`. */
export function leaked(json: unknown, ...known: Set<string>[]): string[] {
  return [...cardNamesIn(json)].filter((c) => !known.some((k) => k.has(c)));
}
