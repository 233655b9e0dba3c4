// GraphQL selections shared by the API tests and the end-to-end tests; a seat's view is selected
// as the game-playing client (shared with the benchmark) selects it.
import { SEAT_VIEW_FIELDS } from '../apps/api/bench/game-client/index.js';

export { SEAT_VIEW_FIELDS };
export type { LegalMovesView } from '../apps/api/bench/game-client/index.js';

export const EVENT_FIELDS = `
  seq type deal dealer hand handSizes talonSize seat contract count discards drawn bid suit card cards
  trick leader winner tricks scores totals winners reason
`;

export const GAME_FIELDS = `
  id status version preset firstDealer mySeat winners createdAt updatedAt finishedAt
  options { mizerkaQuotas target doubleMisere }
  players { seat playerId name total place }
  deals { index dealer seedHash seed contract declarer bid trump tricks scores finished }
  view { ${SEAT_VIEW_FIELDS} }
`;

export const GAME_QUERY = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;
