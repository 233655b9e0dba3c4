// The game's words and the client's numbers in each language, through the i18next instance the
// screens use (terms.ts keeps its signatures: the table screen calls it as before).
import { afterAll, describe, expect, it } from 'vitest';
import i18n, { formatNumber } from './i18n';
import { bidName, contractName, ordinal, presetLabel } from './terms';
import { tempo } from './ui';
import { cardName } from './cards';
import { timeLeft } from './hooks';
import { points } from './tournament-view';

describe('the game’s words follow the interface’s language', () => {
  afterAll(() => i18n.changeLanguage('en'));

  it.each([
    ['en', 'Hearts ♥', 'Mizerka (avoid tricks)', 'Misère', '2nd', 'Short, four players', '1 day per move', '1.5', 'Ace of spades', 'Ten of diamonds'],
    ['de', 'Herz ♥', 'Mizerka (Stiche vermeiden)', 'Misère', '2.', 'Kurz, vier Spieler', '1 Tg. pro Zug', '1,5', 'Pik Ass', 'Karo Zehn'],
    ['ja', 'ハート ♥', 'ミゼルカ（トリックを避ける）', 'ミゼール', '2位', 'ショート（4人）', '1手あたり1 日', '1.5', 'スペードのエース', 'ダイヤの10'],
    ['pl', 'Kiery ♥', 'Mizerka (bez lew)', 'Mizer', '2.', 'Krótka, czterech graczy', '1 dzień na ruch', '1,5', 'As pik', 'Dziesiątka karo'],
  ])('in %s', async (language, hearts, mizerka, misere, second, short4, daily, half, aceOfSpades, tenOfDiamonds) => {
    await i18n.changeLanguage(language);
    expect(contractName('hearts')).toBe(hearts);
    expect(contractName('mizerka')).toBe(mizerka);
    expect(bidName('misere')).toBe(misere);
    expect(ordinal(2)).toBe(second);
    expect(presetLabel('short-4')).toBe(short4);
    expect(tempo({ moveSeconds: 86400, bankSeconds: 0 }).replace(/\s/g, ' ')).toBe(daily);
    expect(points(1.5)).toBe(half);
    expect(formatNumber(1.5)).toBe(half);
    expect(timeLeft(new Date(0).toISOString(), 1)).not.toBe('');
    // The replay's moves and the table name cards in the language (the replay said "Ace of spades" in every one).
    expect(cardName('AS')).toBe(aceOfSpades);
    expect(cardName('TD')).toBe(tenOfDiamonds);
  });

  it('English places are 1st, 2nd, 3rd, 4th, 11th, 21st', async () => {
    await i18n.changeLanguage('en');
    expect([1, 2, 3, 4, 11, 21].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '21st']);
  });
});
