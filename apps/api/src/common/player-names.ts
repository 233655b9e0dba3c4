// The rules of a player's name, in one place: registration checks a name against them, and a
// player made from an identity provider's user (auth/identity-issuers.ts) gets a name that keeps them.

/** Letters, digits, "_" and "-", starting with a letter or digit; 3 to 32 of them (NAME_LENGTH). */
export const PLAYER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const NAME_LENGTH = { min: 3, max: 32 } as const;

/** The names of the server's own bots (bot-strong, bot-strong-2, …): nobody may register one. */
export const SERVER_BOT_NAME = /^bot-(random|basic|strong)(-\d+)?$/i;

/** Letters that no decomposition turns into a plain one. */
const PLAIN: Record<string, string> = { ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE' };

/**
 * A display name made into a player's name: accents dropped, anything else outside the rules
 * becomes "-", cut to leave room for a "-2" suffix; null when too little of it is left or it is
 * a server bot's.
 */
export function playerNameFrom(display: string): string | null {
  const name = display
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[łŁøØđĐßæÆœŒ]/g, (letter) => PLAIN[letter])
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, NAME_LENGTH.max - 4)
    .replace(/[-_]+$/, '');
  return name.length >= NAME_LENGTH.min && !SERVER_BOT_NAME.test(name) ? name : null;
}
