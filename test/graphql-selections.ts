// GraphQL selections shared by the API tests and the end-to-end tests.

export const SEAT_VIEW_FIELDS = `
  family preset players phase deal dealer toMove viewer hand discards handSizes talonSize
  legalMoves { kind seat contracts cards maxDiscards count bids suits }
  contract chooser contractsLeft exchanged bids declarer bid trump activeSeats
  currentTrick { leader cards { seat card } winner }
  lastTrick { leader cards { seat card } winner }
  tricks dealScores { deal dealer tricks scores contract declarer bid trump }
  totals over winners
`;

export const EVENT_FIELDS = `
  seq type deal dealer hand handSizes talonSize seat contract count discards drawn bid suit card cards
  trick leader winner tricks scores totals winners
`;

export const GAME_FIELDS = `
  id status version preset firstDealer mySeat winners createdAt updatedAt finishedAt
  options { mizerkaQuotas target doubleMisere }
  players { seat playerId name total place }
  deals { index dealer seedHash seed contract declarer bid trump tricks scores finished }
  view { ${SEAT_VIEW_FIELDS} }
`;

export const GAME_QUERY = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;

/** The `legalMoves` selection above, as the tests read it. */
export interface LegalMovesView {
  kind: string;
  seat: number;
  contracts: string[] | null;
  cards: string[] | null;
  maxDiscards: number | null;
  count: number | null;
  bids: string[] | null;
  suits: string[] | null;
}
