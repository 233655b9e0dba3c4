import { cardName, makeRules, RECORD_FORMAT, shuffledDeck, type EndReason, type GameRecord, type RecordMove, type Rules } from '@mizerka/rules';
import { DomainError } from '../common/errors.js';

/** What a stored finished game gives its mizerka-record/1: the one way a record is built (view, REST, export). */
export interface RecordSource {
  preset: string;
  options: unknown;
  firstDealer: number;
  endSeat: number | null;
  endReason: string | null;
  /** Names by seat. */
  players: string[];
  /** By seat: null for a person, else the bot's level or 'account' (a bot account); see botMarksOf. */
  bots: (string | null)[];
  /** By deal index: the seed the deck was shuffled from, or an imported deal's stored deck. */
  deals: { seed: string | null; deck: string[] | null }[];
  /** Every move of the log in seq order (deals and ends left out), with its deal. */
  moves: { dealIndex: number; move: unknown }[];
}

export function buildRecord(game: RecordSource): GameRecord & { players: string[] } {
  const rules = makeRules(game.preset, game.options);
  if (!rules.ok) throw new DomainError('INTERNAL', 'Internal server error');
  const byDeal = new Map<number, RecordMove[]>();
  for (const m of game.moves) {
    const list = byDeal.get(m.dealIndex) ?? [];
    list.push(m.move as RecordMove);
    byDeal.set(m.dealIndex, list);
  }
  return {
    ...recordHead(game, rules.value),
    deals: game.deals.map((d, index) => ({
      deck: d.seed !== null ? shuffledDeck(rules.value, d.seed).map(cardName) : [...(d.deck ?? [])],
      moves: byDeal.get(index) ?? [],
    })),
    ...recordEnd(game),
  };
}

/** A record's keys before `deals`, in their order (buildRecord and buildRecordText alike). */
function recordHead(game: Omit<RecordSource, 'moves'>, rules: Rules) {
  return {
    format: RECORD_FORMAT as GameRecord['format'],
    rules: { preset: rules.preset, options: rules.options },
    firstDealer: game.firstDealer,
    players: game.players,
    // Written only when a computer player sat at the table.
    ...(game.bots.some((b) => b !== null) ? { bots: game.bots } : {}),
  };
}

/** A record's key after `deals`: the end of a game that ended early. */
function recordEnd(game: Omit<RecordSource, 'moves'>): { end?: { seat: number; reason: EndReason } } {
  return game.endSeat !== null ? { end: { seat: game.endSeat, reason: game.endReason as EndReason } } : {};
}

/** A card's name as JSON text ('"AS"'), by card. */
const QUOTED = Array.from({ length: 52 }, (_, card) => `"${cardName(card)}"`);

function deckText(deck: readonly number[]): string {
  let text = '[';
  for (let i = 0; i < deck.length; i++) text += i === 0 ? QUOTED[deck[i]] : `,${QUOTED[deck[i]]}`;
  return `${text}]`;
}

/**
 * The text JSON.stringify(buildRecord(game)) gives, with each deal's moves given as their JSON text
 * (compact-log.ts recordMoveTexts): written without building the record's objects, for the export
 * of compacted games, hundreds a second. The compaction job compares this text with the stored
 * record before it drops it, and a test with JSON.stringify(buildRecord(…)).
 */
export function buildRecordText(game: Omit<RecordSource, 'moves'>, movesByDeal: readonly string[]): string {
  const rules = makeRules(game.preset, game.options);
  if (!rules.ok) throw new DomainError('INTERNAL', 'Internal server error');
  // The keys around `deals` by JSON.stringify itself, as buildRecord has them.
  let text = `${JSON.stringify(recordHead(game, rules.value)).slice(0, -1)},"deals":[`;
  game.deals.forEach((d, index) => {
    const deck = d.seed !== null ? deckText(shuffledDeck(rules.value, d.seed)) : JSON.stringify([...(d.deck ?? [])]);
    text += `${index === 0 ? '' : ','}{"deck":${deck},"moves":[${movesByDeal[index] ?? ''}]}`;
  });
  const { end } = recordEnd(game);
  return `${text}]${end ? `,"end":${JSON.stringify(end)}` : ''}}`;
}

/** Names by seat: a seat's player, else (an imported game's other seats) the name its record gave. */
export function seatNamesOf(seats: { seat: number; player: { name: string } }[], seatNames: string[], players: number): string[] {
  return Array.from({ length: players }, (_, seat) => seats.find((s) => s.seat === seat)?.player.name ?? seatNames[seat] ?? `seat ${seat}`);
}

/**
 * By seat, what the record's `bots` says: null for a person (or a name-only seat), the level of a
 * server bot, 'account' for a bot account. An imported game's are its record's (`seatBots`, '' a person).
 */
export function botMarksOf(
  seats: { seat: number; player: { kind: string; botLevel: string | null } }[],
  players: number,
  seatBots: string[] | null = null,
): (string | null)[] {
  if (seatBots && seatBots.length === players) return seatBots.map((b) => (b === '' ? null : b));
  return Array.from({ length: players }, (_, seat) => {
    const player = seats.find((s) => s.seat === seat)?.player;
    if (!player || player.kind !== 'bot') return null;
    return player.botLevel ?? 'account';
  });
}
