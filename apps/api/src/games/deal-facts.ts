import type { Prisma } from '../generated/prisma/client.js';

/** The columns of a deal that are public from its start (the seed is not among them). */
export const DEAL_FACTS = {
  index: true,
  dealer: true,
  seedHash: true,
  contract: true,
  declarer: true,
  bid: true,
  trump: true,
  tricks: true,
  scores: true,
  finishedAt: true,
} satisfies Prisma.DealSelect;
