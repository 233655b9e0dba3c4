import { describe, expect, it } from 'vitest';
import { boardComparison, namesOf, nextGame, percentOfTops, points, type Rounds } from './tournament-view';

const table = (n: number, gameId: string, status: string, players: string[]) => ({ table: n, gameId, board: null, status, players, places: null, totals: players.map(() => 0) });
const round = (number: number, status: string, tables: ReturnType<typeof table>[], byes: string[] = []): Rounds[number] => ({
  number,
  status,
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: null,
  deadline: null,
  byes,
  tables,
});

describe('nextGame', () => {
  it("points at the player's game under way in the latest round", () => {
    const rounds = [round(1, 'finished', [table(1, 'g1', 'finished', ['a', 'b', 'c'])]), round(2, 'running', [table(1, 'g2', 'active', ['c', 'a', 'b'])])];
    expect(nextGame(rounds, 'a', 'running')).toEqual({ kind: 'play', gameId: 'g2', round: 2, table: 1 });
  });

  it('says a bye, or waiting for the other tables once the game is over', () => {
    const rounds = [round(1, 'running', [table(1, 'g1', 'finished', ['a', 'b', 'c']), table(2, 'g2', 'active', ['d', 'e', 'f'])], ['g'])];
    expect(nextGame(rounds, 'g', 'running')).toEqual({ kind: 'bye', round: 1 });
    expect(nextGame(rounds, 'a', 'running')).toEqual({ kind: 'wait', round: 1 });
    expect(nextGame(rounds, 'd', 'running')).toEqual({ kind: 'play', gameId: 'g2', round: 1, table: 2 });
  });

  it('has nothing to play before the start or after the end', () => {
    const rounds = [round(1, 'running', [table(1, 'g1', 'active', ['a', 'b', 'c'])])];
    expect(nextGame(rounds, 'a', 'open')).toEqual({ kind: 'none' });
    expect(nextGame(rounds, 'a', 'finished')).toEqual({ kind: 'none' });
    expect(nextGame([], 'a', 'running')).toEqual({ kind: 'none' });
  });
});

describe('names and points', () => {
  it('names a known player and shortens an unknown id', () => {
    const name = namesOf([{ id: 'p1', name: 'ala' }]);
    expect(name('p1')).toBe('ala');
    expect(name('0123456789abcdef')).toBe('player 01234567');
  });

  it('prints a half point of a bye', () => {
    expect(points(2)).toBe('2');
    expect(points(1.5)).toBe('1.5');
  });
});

describe('boardComparison', () => {
  const result = (position: number, playerId: string, score: number, matchpoints: number, tops: number) => ({ position, playerId, score, matchpoints, tops });

  it('groups the results by seat position, in order, best first with their percentage of tops', () => {
    const compared = boardComparison([
      result(1, 'b1', 40, 0, 2),
      result(0, 'a1', 100, 0.5, 2),
      result(1, 'b2', 60, 2, 2),
      result(0, 'a2', 100, 0.5, 2),
      result(1, 'b3', 50, 1, 2),
      result(0, 'a3', 120, 2, 2),
    ]);
    expect(compared.map((g) => g.position)).toEqual([0, 1]);
    expect(compared[0]!.results.map((r) => [r.playerId, r.percent])).toEqual([
      ['a3', 100],
      ['a1', 25],
      ['a2', 25],
    ]);
    expect(compared[1]!.results.map((r) => [r.playerId, r.percent])).toEqual([
      ['b2', 100],
      ['b3', 50],
      ['b1', 0],
    ]);
  });

  it('breaks equal matchpoints by the score, and has no percentage without a result to compare with', () => {
    const [group] = boardComparison([result(2, 'x', 10, 0, 1), result(2, 'y', 30, 0, 1), result(2, 'alone', 5, 0, 0)]);
    expect(group!.results.map((r) => r.playerId)).toEqual(['y', 'x', 'alone']);
    expect(group!.results.map((r) => percentOfTops(r.percent))).toEqual(['0%', '0%', '–']);
    expect(percentOfTops(200 / 3)).toBe('67%');
    expect(boardComparison([])).toEqual([]);
  });
});
