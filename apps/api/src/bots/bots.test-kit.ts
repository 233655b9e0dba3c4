import { threadId } from 'node:worker_threads';
import { botMove, type Bot, type BotLevel } from '@mizerka/bots';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import type { BotThinker } from './bot-thinkers.js';
import type { TestApp } from '../../../../test/app.js';
import { waitFor as waitUntil } from '../../../../test/wait.js';

/**
 * Jobs worked at once, relayed at once; a bot's job waits ten minutes, so the bots of a game that
 * runs to its end in a test moved by the head start its instance gave them at the commit.
 */
const base = loadConfig({});
export const FAST: Partial<AppConfig> = {
  jobs: { ...base.jobs, worker: true, pollMs: 100, relayDelayMs: 5, botGraceMs: 600_000 },
  clocks: { minMoveSeconds: 1, warningPercent: 0 },
};
/** No jobs at all in this process: a test drives the bot service by hand. */
export const NO_JOBS: Partial<AppConfig> = { jobs: { ...base.jobs, worker: false } };

export const LOBBY_SEATS = `id status gameId seats { seat player { id name kind botLevel } }`;

/** test/wait.ts's waitFor, its time-out (30 s) as the bots' tests give it. */
export function waitFor<T>(check: () => Promise<T | null | undefined | false>, what: string, ms = 30_000): Promise<T> {
  return waitUntil(check, what, { timeout: ms, every: 25 }) as Promise<T>;
}

/** A lobby of `preset` hosted by `token`'s player at seat 0; answers its id. */
export async function openLobby(t: TestApp, token: string, preset = 'bidding', options: Record<string, unknown> = { target: 40 }): Promise<string> {
  const made = await t.gql(`mutation($input: CreateLobbyInput!) { createLobby(input: $input) { id } }`, { input: { preset, options } }, token);
  if (!made.data) throw new Error(JSON.stringify(made.errors));
  return made.data.createLobby.id as string;
}

export function addBot(t: TestApp, token: string, lobbyId: string, level: string, seat?: number) {
  return t.gql(
    `mutation($lobbyId: ID!, $level: BotLevel!, $seat: Int) { addBot(lobbyId: $lobbyId, level: $level, seat: $seat) { ${LOBBY_SEATS} } }`,
    { lobbyId, level, seat },
    token,
  );
}

/** Bots thinking on this thread with a table of levels of the test's own (a level that throws): a worker runs only the real ones. */
export function inProcessThinker(levels: Record<BotLevel, Bot>): BotThinker {
  return {
    think: async (_owner, { level, input, seed, budgetMs }) => {
      const started = performance.now();
      return { ...botMove(level, input, { seed, budgetMs }, levels), thinkMs: performance.now() - started, threadId };
    },
    close: async () => {},
  };
}
