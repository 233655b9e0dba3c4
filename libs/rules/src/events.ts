import type { Card, Suit } from './cards.js';
import type { Seat } from './result.js';
import type { Bid, Contract } from './rules.js';
import type { EndReason } from './state.js';

/** What a move made happen. Some events carry private cards; eventView is the one redaction point. */
export type GameEvent =
  | { type: 'dealt'; deal: number; dealer: Seat; hands: Card[][]; talonSize: number } // hands: what each seat now sees
  | { type: 'contractChosen'; seat: Seat; contract: Contract }
  | { type: 'handCompleted'; hands: Card[][] } // contract family, after the pause
  | { type: 'exchanged'; seat: Seat; discards: Card[]; drawn: Card[] }
  | { type: 'bid'; seat: Seat; bid: Bid }
  | { type: 'declarer'; seat: Seat; bid: Bid }
  | { type: 'talonTaken'; seat: Seat; cards: Card[] }
  | { type: 'discarded'; seat: Seat; cards: Card[] }
  | { type: 'trumpNamed'; seat: Seat; suit: Suit }
  | { type: 'cardPlayed'; seat: Seat; card: Card }
  | { type: 'trickTaken'; trick: number; leader: Seat; cards: Card[]; winner: Seat } // cards in play order
  | { type: 'dealScored'; deal: number; tricks: (number | null)[]; scores: number[]; totals: number[] }
  | { type: 'gameEnded'; seat: Seat; reason: EndReason } // resigned or forfeited; a gameOver follows
  | { type: 'gameOver'; totals: number[]; winners: Seat[] };
