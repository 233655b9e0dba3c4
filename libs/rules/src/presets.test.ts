import { describe, expect, it } from 'vitest';
import { FAMILIES, makeRules, playerCounts, presetInfo, PRESETS, presetsOf } from './index.js';

// What docs/rules.md says of each preset, checked against the one table the rules, the server
// and the client read.
describe('the presets and families', () => {
  it('lists the six presets of docs/rules.md with their table, contracts, hands and deals', () => {
    const rows = PRESETS.map((name) => {
      const p = presetInfo(name)!;
      return [p.name, p.family, p.players, p.contracts.length, p.deck.length, p.handSize, p.deals];
    });
    expect(rows).toStrictEqual([
      ['classic', 'contract', 3, 6, 52, 13, 18],
      ['classic-4', 'contract', 4, 6, 52, 10, 24],
      ['short', 'contract', 3, 3, 52, 13, 9],
      ['short-4', 'contract', 4, 3, 52, 10, 12],
      ['bidding', 'bidding', 3, 0, 32, 10, null],
      ['bidding-4', 'bidding', 4, 0, 32, 10, null],
    ]);
  });

  it('gives the rules of a preset what its metadata says', () => {
    for (const name of PRESETS) {
      const info = presetInfo(name)!;
      const rules = makeRules(name);
      if (!rules.ok) throw new Error(rules.error.message);
      expect(rules.value).toMatchObject({ family: info.family, players: info.players, deals: info.deals, handSize: info.handSize });
      expect(rules.value.contracts).toStrictEqual(info.contracts);
      expect(rules.value.deck).toStrictEqual(info.deck);
    }
  });

  it('knows each family, its presets and the table sizes they are played at', () => {
    expect(FAMILIES.map((f) => [f.name, f.minRank, f.deck.length])).toStrictEqual([
      ['contract', 0, 52],
      ['bidding', 5, 32],
    ]);
    expect(presetsOf('bidding').map((p) => p.name)).toStrictEqual(['bidding', 'bidding-4']);
    expect(playerCounts()).toStrictEqual([3, 4]);
    expect(playerCounts('contract')).toStrictEqual([3, 4]);
    expect(presetInfo('poker')).toBeNull();
  });
});
