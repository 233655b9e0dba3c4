// Names and numbers of the game the screens show: presets, contracts, bids, quotas, in the
// interface's language (the `game` namespace of src/locales). Plain functions, not hooks: a
// component calling them re-renders on a language change through its own useTranslation.
import { CONTRACTS, presetInfo, PRESETS as RULE_PRESETS, type PresetInfo } from '@mizerka/rules';
import type { Bid, Contract, SeatViewFieldsFragment } from './gql/graphql';
import { suitSymbol } from './cards';
import i18n from './i18n';

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

/** A preset's name in words ("Short, four players"); an unknown one as the API names it. */
export function presetLabel(preset: string): string {
  return i18n.t(`game:preset.${preset}`, { defaultValue: presetInfo(preset)?.label ?? preset });
}

export function contractName(contract: Contract | null | undefined): string {
  if (!contract) return '—';
  if (contract === 'notrumps' || contract === 'mizerka') return i18n.t(`game:contract.${contract}`);
  return `${i18n.t(`game:contract.${contract}`)} ${suitSymbol(contract)}`;
}

/** A suit as trumps ("hearts ♥"). */
export function trumpName(suit: string | null | undefined): string {
  if (!suit) return '—';
  return `${i18n.t(`game:suit.${suit}`, { defaultValue: suit })} ${suitSymbol(suit)}`.trim();
}

export function bidName(bid: Bid | null | undefined): string {
  switch (bid) {
    case 'pass':
    case 'play':
    case 'misere':
    case 'double_misere':
      return i18n.t(`game:bid.${bid}`);
    default:
      return '—';
  }
}

/** A place: "1st", "2.", "1位". */
export function ordinal(place: number): string {
  return i18n.t('game:place', { count: place, ordinal: true });
}

/**
 * What a seat must take this deal, as docs/rules.md "Quotas by position" says: by its position
 * from the dealer in the contract family; the declarer's aim in the bidding family.
 */
export function quotaText(view: SeatViewFieldsFragment, seat: number, mizerkaQuotas: string | null | undefined): string | null {
  if (view.family === 'bidding') {
    if (view.declarer !== seat || !view.bid) return null;
    return view.bid === 'play' ? i18n.t('game:quota.needsFive') : i18n.t('game:quota.needsNone');
  }
  if (!view.contract) return null;
  const n = view.players;
  const offset = (seat - view.dealer + n) % n; // 1 = chooser, n-1 = right, 0 = dealer
  const bySuit: Record<number, number> = n === 3 ? { 1: 7, 2: 5, 0: 1 } : { 1: 4, 2: 3, 3: 2, 0: 1 };
  const reversed: Record<number, number> = n === 3 ? { 1: 1, 2: 5, 0: 7 } : { 1: 1, 2: 2, 3: 3, 0: 4 };
  const table = view.contract === 'mizerka' && mizerkaQuotas !== 'same' ? reversed : bySuit;
  const quota = table[offset];
  return view.contract === 'mizerka' ? i18n.t('game:quota.atMost', { n: quota }) : i18n.t('game:quota.atLeast', { n: quota });
}
