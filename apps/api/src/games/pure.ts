// The part of the games feature a worker thread may load: pure functions of records, deals and
// the game commit's projection, without NestJS, Prisma or a database (the import's replay runs on one). Everything else goes
// through index.ts.
export { packed, projectCommit, type ArchivedEntry, type GameProjection } from './game-commit.js';
export { boardDealSeed, boardFirstDealer, newBoard, seedHashOf, type Board } from './dealing.js';
export { buildRecord } from './record.js';
