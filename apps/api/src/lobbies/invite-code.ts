import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L: a code read aloud or copied from a screen cannot be mistaken.
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 8;
/** What a well-formed code looks like once normalised. */
export const INVITE_CODE = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** 31^8 ≈ 8.5 × 10^11 codes: collisions are rare, and the unique index catches the rest. */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/**
 * The code as a person types it: case, spaces and dashes do not matter. Null when it cannot be
 * a code at all, so nonsense never reaches the database.
 */
export function normaliseInviteCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return INVITE_CODE.test(code) ? code : null;
}
