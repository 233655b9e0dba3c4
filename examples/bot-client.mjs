/* global fetch, setTimeout */
// A bot account for Mizerka, in plain Node 20 against the public REST API: it registers as a bot
// (or uses BOT_TOKEN), then loops: the games where it is its turn, each game's view, one legal move.
// BASE_URL=http://localhost:3000 node examples/bot-client.mjs   (optional: BOT_NAME, BOT_TOKEN,
// POLL_MS, GAME_ID: stop once that game is over). It picks at random; put your own player in choose().
const api = `${process.env.BASE_URL ?? 'http://localhost:3000'}/api/v1`;
const pollMs = Number(process.env.POLL_MS ?? 1000);
let token = process.env.BOT_TOKEN;

async function call(method, path, body) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(api + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${json?.detail ?? json?.title ?? ''}`), { status: res.status });
  return json;
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];
function choose(legal) {
  switch (legal.kind) {
    case 'contract': return { kind: 'contract', contract: pick(legal.contracts) };
    case 'bid': return { kind: 'bid', bid: pick(legal.bids) };
    case 'trump': return { kind: 'trump', suit: pick(legal.suits) };
    case 'play': return { kind: 'play', card: pick(legal.cards) };
    case 'exchange': return { kind: 'exchange', discards: [] };
    case 'discard': return { kind: 'discard', cards: legal.cards.slice(0, legal.count) };
  }
}

if (!token) {
  const made = await call('POST', '/players', { name: process.env.BOT_NAME ?? `bot${Date.now() % 1e9}`, bot: true });
  token = made.token;
  console.log(JSON.stringify({ registered: made.player.name, playerId: made.player.id, token }));
}
for (;;) {
  const { items } = await call('GET', '/me/turns?first=20');
  for (const { gameId } of items) {
    const game = await call('GET', `/games/${gameId}`);
    if (!game.view.legalMoves) continue;
    // expectedVersion: if the clock moved for us meanwhile, the server answers 409 and we look again.
    await call('POST', `/games/${gameId}/moves`, { ...choose(game.view.legalMoves), expectedVersion: game.version })
      .catch((error) => { if (error.status !== 409) throw error; });
  }
  if (process.env.GAME_ID && (await call('GET', `/games/${process.env.GAME_ID}`)).status === 'finished') break;
  if (items.length === 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
