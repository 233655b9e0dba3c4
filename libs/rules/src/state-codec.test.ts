import { describe, expect, it } from 'vitest';
import { apply, decodeState, encodeState, legalMoves, phase, STATE_VERSION, view } from './index.js';

/**
 * A classic game in the play phase of its first deal, as servers stored it before the codec wrote
 * "v" (made by serializeStateJson at commit 447107b; do not regenerate: it stands for rows already
 * in databases).
 */
const UNVERSIONED: Record<string, unknown> = JSON.parse(
  '{"format": "mizerka-state/1", "rules": {"preset": "classic", "options": {}}, "firstDealer": 1, "dealNo": 0, "phase": 6, "dealer": 1, "sitOut": -1, "toMove": 1, "deck": [11, 4, 49, 35, 36, 27, 7, 6, 15, 26, 41, 48, 42, 37, 13, 17, 8, 25, 18, 44, 2, 40, 33, 47, 32, 5, 45, 31, 9, 38, 12, 16, 14, 10, 46, 23, 34, 19, 22, 51, 1, 43, 0, 39, 20, 30, 3, 24, 50, 21, 29, 28], "hands": [1056, 4416, 6163, 18, 4233, 545, 136, 1220, 2820, 134, 1344, 2056, 0, 0, 0, 0], "discards": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "talon": [35, 6, 48, 17, 44, 47, 31, 16, 23, 51, 39, 24, 28], "talonLen": 13, "talonPos": 0, "used": [0, 0, 1], "contract": 0, "chooser": 2, "exchanged": [0, 0, 0], "bids": [-1, -1, -1], "bidsMade": 0, "declarer": -1, "bid": -1, "trump": 0, "leader": 2, "trickLen": 2, "trickNo": 0, "trickCards": [1, 4, 0, 0], "trickSeats": [2, 0, 0, 0], "lastLeader": -1, "lastWinner": -1, "lastLen": 0, "lastCards": [0, 0, 0, 0], "lastSeats": [0, 0, 0, 0], "tricks": [0, 0, 0], "totals": [0, 0, 0], "finished": [], "winners": [], "endSeat": -1, "endReason": -1, "abandoned": []}',
);

describe('the stored state codec', () => {
  it('reads a state stored before versions were written', () => {
    expect(UNVERSIONED.v).toBeUndefined();
    const state = decodeState(UNVERSIONED);
    expect(phase(state)).toBe('play');
    const seen = view(state, 0);
    expect(seen).toMatchObject({ preset: 'classic', phase: 'play', deal: 0, dealer: 1, toMove: 1, contract: 'clubs', handSizes: [12, 13, 12] });
    expect(seen.hand).toStrictEqual(['7C', 'QC', '8D', 'TD', 'AD', '2H', '3H', '6H', 'KH', 'AH', '3S', '6S']);
    expect(legalMoves(state)).toMatchObject({ kind: 'play', seat: 1 });
  });

  it('writes version 1: the old fields unchanged, and "v"', () => {
    const again = JSON.parse(encodeState(decodeState(UNVERSIONED))) as Record<string, unknown>;
    expect(again.v).toBe(STATE_VERSION);
    expect(STATE_VERSION).toBe(1);
    const { v: _v, ...rest } = again;
    expect(rest).toStrictEqual(UNVERSIONED);
    expect(Object.keys(again).slice(0, 3)).toStrictEqual(['format', 'v', 'rules']);
  });

  it('reads an unversioned state from before early ends (no endSeat, endReason, abandoned), and plays on', () => {
    const { endSeat: _s, endReason: _r, abandoned: _a, ...older } = UNVERSIONED;
    const state = decodeState(older);
    expect(JSON.parse(encodeState(state))).toStrictEqual({ ...UNVERSIONED, v: 1 });
    const move = legalMoves(state);
    if (move?.kind !== 'play') throw new Error('expected a card to play');
    expect(apply(state, { kind: 'play', seat: move.seat, card: move.cards[0] }).ok).toBe(true);
  });

  it('holds version 1 to every field, and refuses a version it does not know', () => {
    const v1 = JSON.parse(encodeState(decodeState(UNVERSIONED))) as Record<string, unknown>;
    const { endSeat: _s, ...missing } = v1;
    expect(() => decodeState(missing)).toThrow('bad state field endSeat');
    expect(() => decodeState({ ...v1, v: 2 })).toThrow('state version 2');
    expect(() => decodeState({ ...UNVERSIONED, format: 'mizerka-state/2' })).toThrow('not a serialized Mizerka state');
  });
});
