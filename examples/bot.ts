// A bot account on @mizerka/client: it follows its feed (server-sent events, no polling) and plays
// each turn from what its seat may see. `npm run example:bot` against `npm start`: it registers a
// bot account (or uses BOT_TOKEN), opens a `short` game against two server bots (LEVEL, default
// basic) and plays it to the end; WAIT=1 instead waits for the games others seat it in.
// BASE_URL (default http://localhost:3000). Put your own player in choose().
import { pathToFileURL } from 'node:url';
import { MizerkaClient, type LegalMoves, type Move } from '@mizerka/client';

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** Your player: a legal move from the seat's legal moves (and `view`, what the seat may see). */
export function choose(legal: LegalMoves): Move {
  switch (legal.kind) {
    case 'contract': return { kind: 'contract', contract: pick(legal.contracts!) };
    case 'bid': return { kind: 'bid', bid: pick(legal.bids!) };
    case 'trump': return { kind: 'trump', suit: pick(legal.suits!) };
    case 'play': return { kind: 'play', card: pick(legal.cards!) };
    case 'exchange': return { kind: 'exchange', discards: [] };
    case 'discard': return { kind: 'discard', cards: legal.cards!.slice(0, legal.count!) };
  }
}

/** Plays every turn of the bot's games as its feed announces them; returns once `untilGame` is over. */
export async function runBot(client: MizerkaClient, untilGame?: string, signal?: AbortSignal): Promise<void> {
  const feed = client.feed({ signal });
  await feed.ready; // listening before catching up, so no turn falls between the two
  const play = (gameId: string) => client.play(gameId, (view) => choose(view.legalMoves!));
  for await (const turn of client.myTurn()) await play(turn.gameId);
  if (untilGame && (await client.game(untilGame)).status !== 'active') return;
  for await (const event of feed) {
    if (event.type === 'yourTurn' && event.gameId) await play(event.gameId);
    if (event.type === 'gameFinished' && event.gameId === untilGame) return;
  }
}

async function main(): Promise<void> {
  const client = new MizerkaClient({ baseUrl: process.env.BASE_URL ?? 'http://localhost:3000', token: process.env.BOT_TOKEN });
  if (!process.env.BOT_TOKEN) {
    const { player, token } = await client.register(process.env.BOT_NAME ?? `bot${Date.now() % 1e9}`, { bot: true });
    console.log(JSON.stringify({ registered: player.name, playerId: player.id, token }));
  }
  let gameId = process.env.GAME_ID;
  if (!gameId && !process.env.WAIT) {
    const lobby = await client.createLobby({ preset: 'short', rated: false });
    await client.addBot(lobby.id, (process.env.LEVEL ?? 'basic') as 'basic');
    gameId = (await client.addBot(lobby.id, (process.env.LEVEL ?? 'basic') as 'basic')).gameId!;
    console.log(JSON.stringify({ playing: gameId }));
  }
  await runBot(client, gameId);
  if (gameId) console.log(JSON.stringify({ finished: gameId, players: (await client.game(gameId)).players.map((p) => [p.name, p.total, p.place]) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
