import { describe, expect, it } from 'vitest';
import { standings, TIE_BREAKS, type GameResult } from './index.js';

describe('standings', () => {
  it('Swiss: points (byes at the average), then Buchholz, head-to-head, wins, id', () => {
    const players = ['a', 'b', 'c', 'd'];
    const games: GameResult[] = [
      { round: 1, table: ['a', 'b', 'c'], finalScores: [10, 0, -10] }, // a 2, b 1, c 0
      { round: 2, table: ['b', 'c', 'd'], finalScores: [-5, 5, 0] }, // c 2, d 1, b 0
    ];
    const byes = [{ round: 1, playerId: 'd' }, { round: 2, playerId: 'a' }];
    const s = standings('swiss', players, games, byes);
    // Points: a 2+1 = 3, d 1+1 = 2, c 0+2 = 2, b 1+0 = 1.
    // Buchholz: d: b 1 + c 2 = 3; c: a 3 + b 1 + b 1 + d 2 = 7.
    expect(s.map((l) => [l.playerId, l.rank, l.points, l.tieBreaks[0]])).toEqual([
      ['a', 1, 3, 3],
      ['c', 2, 2, 7],
      ['d', 3, 2, 3],
      ['b', 4, 1, 3 + 2 + 2 + 2],
    ]);
    expect(s.find((l) => l.playerId === 'd')).toMatchObject({ games: 1, byes: 1 });
    expect(TIE_BREAKS.swiss).toEqual(['buchholz', 'head-to-head', 'wins']);
  });

  it('equal on everything share a rank, listed by id; a forfeit is last; byePoints counts', () => {
    const games: GameResult[] = [{ round: 1, table: ['y', 'x', 'z'], finalScores: [50, 0, 0], forfeited: ['y'] }];
    const s = standings('round-robin', ['x', 'y', 'z'], games, [], { byePoints: 2 });
    expect(s.map((l) => [l.playerId, l.rank, l.points])).toEqual([
      ['x', 1, 1.5],
      ['z', 1, 1.5],
      ['y', 3, 0],
    ]);
  });

  it('arena streak: after two wins in a row, games count double until one is not won', () => {
    const g = (round: number, scores: number[]): GameResult => ({ round, table: ['a', 'b', 'c'], finalScores: scores });
    const games = [g(1, [3, 0, 0]), g(2, [3, 0, 0]), g(3, [3, 0, 0]), g(4, [0, 3, 1]), g(5, [3, 0, 0])];
    const plain = standings('arena', ['a', 'b', 'c'], games, []);
    const streak = standings('arena', ['a', 'b', 'c'], games, [], { arenaStreak: true });
    expect(plain.find((l) => l.playerId === 'a')!.points).toBe(2 + 2 + 2 + 0 + 2);
    expect(streak.find((l) => l.playerId === 'a')!.points).toBe(2 + 2 + 4 + 0 + 2);
  });

  it('duplicate: ranks by matchpoint percentage among those who held the same cards', () => {
    const games: GameResult[] = [
      { round: 0, board: 0, table: ['a', 'b', 'c'], finalScores: [5, 0, -5] },
      { round: 0, board: 0, table: ['d', 'e', 'f'], finalScores: [1, 4, -5] },
    ];
    const s = standings('duplicate', ['a', 'b', 'c', 'd', 'e', 'f'], games, []);
    const by = new Map(s.map((l) => [l.playerId, l]));
    expect(by.get('a')!.points).toBe(100);
    expect(by.get('d')!.points).toBe(0);
    expect(by.get('e')!.points).toBe(100);
    expect(by.get('c')!.points).toBe(50);
    expect(by.get('f')!.points).toBe(50);
    expect(() => standings('duplicate', ['a'], [{ round: 0, table: ['a', 'b', 'c'], finalScores: [0, 0, 0] }], [])).toThrow(/board/);
  });
});
