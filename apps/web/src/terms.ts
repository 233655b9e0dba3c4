// Names and numbers of the game the screens show: presets, contracts, bids, quotas.
import { CONTRACTS, presetInfo, PRESETS as RULE_PRESETS, type PresetInfo } from '@mizerka/rules';
import type { Bid, Contract, SeatViewFieldsFragment } from './gql/graphql';
import { suitSymbol } from './cards';

/** The presets the menus offer, in the rules' order, as the rules describe them (libs/rules/src/presets.ts). */
export const PRESETS: readonly PresetInfo[] = RULE_PRESETS.map((name) => presetInfo(name) as PresetInfo);

/** The contracts of a contract-family preset, in the rules' order (the short presets have three). */
export function contractsOf(preset: string): Contract[] {
  return [...(presetInfo(preset)?.contracts ?? CONTRACTS)];
}

/** Deals in a contract-family game (players × contracts); null for bidding (it plays to a target). */
export function dealsInGame(preset: string): number | null {
  return presetInfo(preset)?.deals ?? null;
}

export function contractName(contract: Contract | null | undefined): string {
  if (!contract) return '—';
  if (contract === 'notrumps') return 'No trumps';
  if (contract === 'mizerka') return 'Mizerka (avoid tricks)';
  return `${contract[0].toUpperCase()}${contract.slice(1)} ${suitSymbol(contract)}`;
}

export function bidName(bid: Bid | null | undefined): string {
  switch (bid) {
    case 'pass':
      return 'Pass';
    case 'play':
      return 'Play';
    case 'misere':
      return 'Misère';
    case 'double_misere':
      return 'Double misère';
    default:
      return '—';
  }
}

export function ordinal(place: number): string {
  const suffix = place % 10 === 1 && place % 100 !== 11 ? 'st' : place % 10 === 2 && place % 100 !== 12 ? 'nd' : place % 10 === 3 && place % 100 !== 13 ? 'rd' : 'th';
  return `${place}${suffix}`;
}

/**
 * What a seat must take this deal, as docs/rules.md "Quotas by position" says: by its position
 * from the dealer in the contract family; the declarer's aim in the bidding family.
 */
export function quotaText(view: SeatViewFieldsFragment, seat: number, mizerkaQuotas: string | null | undefined): string | null {
  if (view.family === 'bidding') {
    if (view.declarer !== seat || !view.bid) return null;
    return view.bid === 'play' ? 'needs 5 or more' : 'needs none';
  }
  if (!view.contract) return null;
  const n = view.players;
  const offset = (seat - view.dealer + n) % n; // 1 = chooser, n-1 = right, 0 = dealer
  const bySuit: Record<number, number> = n === 3 ? { 1: 7, 2: 5, 0: 1 } : { 1: 4, 2: 3, 3: 2, 0: 1 };
  const reversed: Record<number, number> = n === 3 ? { 1: 1, 2: 5, 0: 7 } : { 1: 1, 2: 2, 3: 3, 0: 4 };
  const table = view.contract === 'mizerka' && mizerkaQuotas !== 'same' ? reversed : bySuit;
  const quota = table[offset];
  return view.contract === 'mizerka' ? `at most ${quota}` : `at least ${quota}`;
}
