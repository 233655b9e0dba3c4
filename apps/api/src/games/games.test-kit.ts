import type { TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { GamesService } from './games.service.js';

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
): Promise<string> {
  const games = t.app.get(GamesService);
  const { gameId } = await t.app
    .get(PrismaService)
    .$transaction((tx) =>
      games.startGame(tx, { lobbyId: null, preset, options, seats: seated.map((p, seat) => ({ seat, playerId: p.id })) }),
    );
  return gameId;
}

export const SEAT_VIEW_FIELDS = `
  family preset players phase deal dealer toMove viewer hand discards handSizes talonSize
  legalMoves { kind seat contracts cards maxDiscards count bids suits }
  contract chooser contractsLeft exchanged bids declarer bid trump activeSeats
  currentTrick { leader cards { seat card } }
  lastTrick { leader cards { seat card } winner }
  tricks dealScores { deal dealer tricks scores contract declarer bid trump }
  totals over winners
`;

export const EVENT_FIELDS = `
  seq type deal dealer hand handSizes talonSize seat contract count discards drawn bid suit card cards
  trick leader winner tricks scores totals winners
`;

export const GAME_FIELDS = `
  id status version preset firstDealer mySeat winners createdAt updatedAt finishedAt
  options { mizerkaQuotas target doubleMisere }
  players { seat playerId name total place }
  deals { index dealer seedHash seed contract declarer bid trump tricks scores finished }
  view { ${SEAT_VIEW_FIELDS} }
`;

export const GAME_QUERY = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;

export const MAKE_MOVE = `mutation($input: MakeMoveInput!) {
  makeMove(input: $input) { gameId version status events { ${EVENT_FIELDS} } game { ${SEAT_VIEW_FIELDS} } }
}`;

export interface LegalMovesView {
  kind: string;
  seat: number;
  contracts: string[] | null;
  cards: string[] | null;
  maxDiscards: number | null;
  count: number | null;
  bids: string[] | null;
  suits: string[] | null;
}

/** A small deterministic generator so a failing game can be replayed from its seed. */
export function rng(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

/** A legal move, as MakeMoveInput fields, chosen among what the view offers. */
export function pickMove(legal: LegalMovesView, random: (n: number) => number): Record<string, unknown> {
  const pick = <T>(xs: T[]): T => xs[random(xs.length)];
  switch (legal.kind) {
    case 'contract':
      return { kind: 'contract', contract: pick(legal.contracts!) };
    case 'exchange': {
      const cards = [...legal.cards!];
      const k = random(Math.min(legal.maxDiscards!, 3) + 1);
      const discards: string[] = [];
      for (let i = 0; i < k; i++) discards.push(cards.splice(random(cards.length), 1)[0]);
      return { kind: 'exchange', discards };
    }
    case 'bid':
      return { kind: 'bid', bid: pick(legal.bids!) };
    case 'discard':
      return { kind: 'discard', cards: legal.cards!.slice(0, legal.count!) };
    case 'trump':
      return { kind: 'trump', suit: pick(legal.suits!) };
    case 'play':
      return { kind: 'play', card: pick(legal.cards!) };
    default:
      throw new Error(`unknown legal move kind ${legal.kind}`);
  }
}
