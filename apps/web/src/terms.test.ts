import { describe, expect, it, vi } from 'vitest';
import { contractsOf, dealsInGame, PRESETS } from './terms';

// A preset added only to the rules' preset table reaches the client's menus and table screen.
vi.mock(import('../../../libs/rules/src/presets.js'), async (original) => {
  const rules = await original();
  const toy = { name: 'toy', label: 'Toy', family: 'contract', players: 3, contracts: ['notrumps', 'mizerka'] } as const;
  return { ...rules, PRESET_TABLE: [...rules.PRESET_TABLE, toy] as unknown as typeof rules.PRESET_TABLE };
});

describe('the client’s presets', () => {
  it('are the rules’ presets, in their order, with their table sizes', () => {
    expect(PRESETS.map((p) => [p.name, p.players])).toStrictEqual([
      ['classic', 3],
      ['classic-4', 4],
      ['short', 3],
      ['short-4', 4],
      ['bidding', 3],
      ['bidding-4', 4],
      ['toy', 3],
    ]);
  });

  it('give the table screen each preset’s contracts and deals', () => {
    expect(contractsOf('short-4')).toStrictEqual(['hearts', 'notrumps', 'mizerka']);
    expect(contractsOf('classic')).toStrictEqual(['clubs', 'diamonds', 'hearts', 'spades', 'notrumps', 'mizerka']);
    expect(contractsOf('toy')).toStrictEqual(['notrumps', 'mizerka']);
    expect(dealsInGame('classic-4')).toBe(24);
    expect(dealsInGame('short')).toBe(9);
    expect(dealsInGame('toy')).toBe(6);
    expect(dealsInGame('bidding')).toBeNull();
  });
});
