// Every screen of the web client, with the data it needs made through the API: the quality test
// (test/web/quality.test.ts) opens each in every language at phone and desktop size.
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestApp } from '../app.js';
import { startGame } from '../../apps/api/src/games/games.test-kit.js';

export const LANGUAGES = ['en', 'de', 'ja', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The sizes every screen is checked at: two phones (the smallest supported) and a desktop. */
export const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'phone-small', width: 360, height: 640 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/**
 * The sizes of the quality sweep (axe, no sideways scroll, screenshots): the smallest supported
 * phone and the desktop. A screen that fits 360 px fits 390; the table test and the budgets check
 * 390×844 themselves. (With all three the sweep took 244 s of CI's 40 minutes.)
 */
export const SWEEP_SIZES = [SIZES[1], SIZES[2]] as const;

export interface SessionTokens {
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
  player: { id: string; name: string };
}

export interface ScreenCase {
  /** The file name's first part: test-results/screenshots/<name>-<size>-<language>.png */
  name: string;
  /** The address after the server's origin: /#/… or a path the server serves the page at. */
  path: string;
  /** The address in one language, when each language needs its own data (a game to move on). */
  pathIn?: (language: Language) => string;
  /** Who is signed in: me (the player with the games), other (a second player, not seated at my games), or no one. */
  as: 'me' | 'other' | null;
  /** A selector the screen shows once its data is there (besides main h1). */
  ready?: string;
  /** Before the checks: open a section, a dialog, make a move, … (the language of the page). */
  prepare?: (page: Page, language?: Language) => Promise<void>;
}

const must = <T>(result: { data?: T | null; errors?: unknown }, what: string): T => {
  if (!result.data) throw new Error(`${what}: ${JSON.stringify(result.errors)}`);
  return result.data;
};

/** A person signed up with a password: a session's tokens, as the sign-up form gets them. */
export async function signUp(t: TestApp, label: string): Promise<SessionTokens> {
  const name = `${label}${randomBytes(4).toString('hex')}`;
  const data = must(
    await t.gql<any>(
      'mutation($name: String!, $password: String!) { signUp(input: { name: $name, password: $password }) { accessToken accessTokenExpiresAt refreshToken player { id name } } }',
      { name, password: `a long passphrase for ${name}` },
    ),
    'signUp',
  );
  return data.signUp as SessionTokens;
}

/** Pages of this context start signed in as `who` (null: signed out) and in `language`. */
export async function prepareContext(context: BrowserContext, who: SessionTokens | null, language: Language) {
  const stored = who
    ? {
        'mizerka.token': who.accessToken,
        'mizerka.name': who.player.name,
        'mizerka.tokenExpiresAt': String(Date.parse(who.accessTokenExpiresAt)),
        'mizerka.refreshToken': who.refreshToken,
      }
    : {};
  // Each new document (not only the first): the values set before the page's scripts run.
  await context.addInitScript(
    ({ stored, language }) => {
      // Runs in the page (the tests' tsconfig has no DOM types).
      type Store = { getItem(key: string): string | null; setItem(key: string, value: string): void };
      const { sessionStorage, localStorage } = globalThis as unknown as { sessionStorage: Store; localStorage: Store };
      if (sessionStorage.getItem('mizerka.test.prepared')) return;
      sessionStorage.setItem('mizerka.test.prepared', '1');
      localStorage.setItem('mizerka.language', language);
      for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    },
    { stored, language },
  );
}

/** A lobby of `host` at `preset`, with `bots` server bots (a full lobby starts its game). */
export async function lobbyWithBots(t: TestApp, host: string, bots: number, preset = 'short'): Promise<{ lobbyId: string; inviteCode: string; gameId: string | null }> {
  const made = must(await t.gql<any>('mutation($p: String!) { createLobby(input: { preset: $p }) { id inviteCode } }', { p: preset }, host), 'createLobby');
  const lobbyId = made.createLobby.id as string;
  let gameId: string | null = null;
  for (let i = 0; i < bots; i++) {
    const added = must(await t.gql<any>('mutation($id: ID!) { addBot(lobbyId: $id, level: basic) { gameId } }', { id: lobbyId }, host), 'addBot');
    gameId = added.addBot.gameId ?? null;
  }
  return { lobbyId, inviteCode: made.createLobby.inviteCode as string, gameId };
}

const TABLE_VIEW = `query($id: ID!) { game(id: $id) { version view { phase toMove deal over handSizes
  currentTrick { cards { card } } legalMoves { kind seat contracts cards maxDiscards count bids suits } } } }`;
const MAKE_MOVE = 'mutation($input: MakeMoveInput!) { makeMove(input: $input) { version } }';

interface TableTurn {
  version: number;
  view: { phase: string; toMove: number | null; deal: number; over: boolean; handSizes: number[]; currentTrick: { cards: { card: string }[] } | null; legalMoves: any };
}

/**
 * A game between `seated` (tokens by seat), moved through the API until `until` holds for the
 * game as seat 0 sees it: every seat makes a simple legal move, seat 0 the declarer in the bidding
 * (it bids to play, the others pass), so its discard and trump come.
 */
export async function tableGameAt(
  t: TestApp,
  seated: { id: string; token: string }[],
  preset: string,
  until: (turn: TableTurn) => boolean,
): Promise<{ gameId: string; turn: TableTurn; move: () => Promise<number> }> {
  const gameId = await startGame(t, seated.map((p) => ({ ...p, name: p.id })), preset);
  const look = async (seat: number) => must(await t.gql<any>(TABLE_VIEW, { id: gameId }, seated[seat].token), 'game').game as TableTurn;
  /** The seat to move's simple move; the game's version after it. */
  const move = async (): Promise<number> => {
    const seat = (await look(0)).view.toMove!;
    const legal = (await look(seat)).view.legalMoves;
    let input: Record<string, unknown>;
    switch (legal.kind) {
      case 'contract':
        input = { kind: 'contract', contract: legal.contracts[0] };
        break;
      case 'exchange':
        input = { kind: 'exchange', discards: legal.cards.slice(0, Math.min(2, legal.maxDiscards)) };
        break;
      case 'bid':
        input = { kind: 'bid', bid: seat === 0 && legal.bids.includes('play') ? 'play' : legal.bids.includes('pass') ? 'pass' : legal.bids[0] };
        break;
      case 'discard':
        input = { kind: 'discard', cards: legal.cards.slice(0, legal.count) };
        break;
      case 'trump':
        input = { kind: 'trump', suit: legal.suits[0] };
        break;
      default:
        input = { kind: 'play', card: legal.cards[0] };
    }
    return must(await t.gql<any>(MAKE_MOVE, { input: { gameId, ...input } }, seated[seat].token), `makeMove ${JSON.stringify(input)}`).makeMove.version as number;
  };
  for (let moves = 0; ; moves++) {
    const turn = await look(0);
    if (until(turn)) return { gameId, turn, move };
    if (turn.view.over || moves > 400) throw new Error(`${preset}: the game never came to the state asked for`);
    await move();
  }
}

/** The data behind every screen, and the list of screens. */
export async function everyScreen(t: TestApp): Promise<{ me: SessionTokens; other: SessionTokens; screens: ScreenCase[] }> {
  const [me, other] = await Promise.all([signUp(t, 'q'), signUp(t, 'o')]);
  const token = me.accessToken;

  // A lobby of mine waiting for players; another's lobby I was invited to.
  const open = await lobbyWithBots(t, token, 0);
  const invited = await lobbyWithBots(t, other.accessToken, 1);
  // A game being played (against two bots: my turn, or the bots' moves on their way), and one over.
  const playing = await lobbyWithBots(t, token, 2);
  const over = await lobbyWithBots(t, token, 2);
  if (!playing.gameId || !over.gameId) throw new Error('a full lobby started no game');
  must(await t.gql<any>('mutation($id: ID!) { resign(input: { gameId: $id }) { status } }', { id: over.gameId }, token), 'resign');

  // The table in each phase at my turn (two more people at the table, every move through the API),
  // each seen by me and by a spectator (other): a contract-family game's contract choice, exchange
  // and a trick under way; a bidding game's bidding, discard and trump.
  const seated = [{ id: me.player.id, token }, ...(await Promise.all([signUp(t, 'p'), signUp(t, 'r')])).map((p) => ({ id: p.player.id, token: p.accessToken }))];
  const myTurn = (phase: string, more: (turn: TableTurn) => boolean = () => true) => (turn: TableTurn) => turn.view.phase === phase && turn.view.toMove === 0 && more(turn);
  const phases = [
    { phase: 'contract', preset: 'classic', until: myTurn('contract') },
    { phase: 'exchange', preset: 'classic', until: myTurn('exchange') },
    { phase: 'play', preset: 'classic', until: myTurn('play', (turn) => (turn.view.currentTrick?.cards.length ?? 0) > 0) },
    { phase: 'bidding', preset: 'bidding', until: myTurn('bidding') },
    { phase: 'discard', preset: 'bidding', until: myTurn('discard') },
    { phase: 'trump', preset: 'bidding', until: myTurn('trump') },
  ];
  const phaseGames = await Promise.all(phases.map(async ({ phase, preset, until }) => ({ phase, gameId: (await tableGameAt(t, seated, preset, until)).gameId })));
  // A deal's summary: a game one card from its first deal's end for each language (the screen's
  // preparation plays that card, and the page, open, summarises the deal until dismissed).
  const lastCard = (turn: TableTurn) => turn.view.phase === 'play' && turn.view.deal === 0 && turn.view.handSizes.every((n) => n === 0 || n === 1) && turn.view.handSizes.filter((n) => n === 1).length === 1;
  const summaries = Object.fromEntries(await Promise.all(LANGUAGES.map(async (l) => [l, await tableGameAt(t, seated, 'short', lastCard)] as const))) as Record<Language, Awaited<ReturnType<typeof tableGameAt>>>;

  // A tournament (public, starting tomorrow) I entered.
  const tournament = must(
    await t.gql<any>(
      'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }',
      { input: { name: `Cup ${randomBytes(2).toString('hex')}`, preset: 'short', format: 'round-robin', startsAt: new Date(Date.now() + 86_400_000).toISOString() } },
      token,
    ),
    'createTournament',
  ).createTournament.id as string;
  must(await t.gql<any>('mutation($id: ID!) { joinTournament(id: $id) { id } }', { id: tournament }, token), 'joinTournament');
  // A duplicate one: its boards (seed hashes fixed at the creation).
  const duplicate = must(
    await t.gql<any>(
      'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }',
      { input: { name: `Duplicate ${randomBytes(2).toString('hex')}`, preset: 'short', format: 'duplicate', formatOptions: { rounds: 2 }, startsAt: new Date(Date.now() + 86_400_000).toISOString() } },
      token,
    ),
    'createTournament',
  ).createTournament.id as string;

  // An app asking for my consent: its request, as GET /oauth/authorize sends the browser to it.
  const clientId = must(
    await t.gql<any>('mutation($input: CreateOAuthAppInput!) { createOAuthApp(input: $input) { clientId } }', { input: { name: 'Score keeper', redirectUris: ['https://scores.example/callback'] } }, other.accessToken),
    'createOAuthApp',
  ).createOAuthApp.clientId as string;
  const authorize = new URL('/oauth/authorize', t.baseUrl);
  const challenge = randomBytes(32).toString('base64url');
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: 'https://scores.example/callback', code_challenge: challenge, code_challenge_method: 'S256', scope: 'read play', state: 's' })) {
    authorize.searchParams.set(k, v);
  }
  const asked = await fetch(authorize, { redirect: 'manual' });
  const consent = asked.headers.get('location');
  if (asked.status !== 302 || !consent) throw new Error(`oauth/authorize answered ${asked.status}`);
  const consentPath = new URL(consent, t.baseUrl);

  const screens: ScreenCase[] = [
    { name: 'sign-in', path: '/#/sign-in', as: null, ready: 'form' },
    { name: 'sign-up', path: '/#/sign-up', as: null, ready: 'form' },
    { name: 'forgot-password', path: '/#/forgot-password', as: null, ready: 'form' },
    // Links from mails, with a token the server does not know: the page says so.
    { name: 'reset-password', path: `/reset-password?token=${randomBytes(16).toString('hex')}`, as: null },
    { name: 'verify-email', path: `/verify-email?token=${randomBytes(16).toString('hex')}`, as: null },
    { name: 'lobbies', path: '/#/lobbies', as: 'me', ready: 'table.list' },
    { name: 'lobby', path: `/#/lobbies/${open.lobbyId}`, as: 'me' },
    { name: 'join', path: `/#/join/${invited.inviteCode}`, as: 'me' },
    { name: 'table', path: `/#/games/${playing.gameId}`, as: 'me', ready: '.table' },
    { name: 'table-spectator', path: `/#/games/${playing.gameId}`, as: 'other', ready: '.table' },
    { name: 'table-over', path: `/#/games/${over.gameId}`, as: 'me', ready: '.table' },
    { name: 'table-over-spectator', path: `/#/games/${over.gameId}`, as: 'other', ready: '.table' },
    ...phaseGames.flatMap(({ phase, gameId }): ScreenCase[] => [
      { name: `table-${phase}`, path: `/#/games/${gameId}`, as: 'me', ready: '.dock .choices, .hand button.card.legal' },
      { name: `table-${phase}-spectator`, path: `/#/games/${gameId}`, as: 'other', ready: `.table[data-phase="${phase}"]` },
    ]),
    {
      name: 'table-summary',
      path: `/#/games/${summaries.en.gameId}`,
      pathIn: (language) => `/#/games/${summaries[language].gameId}`, // each language its own game
      as: 'me',
      ready: '.table',
      prepare: async (page, language) => {
        await page.evaluate("localStorage.setItem('mizerka.dealSummarySeconds', '0')");
        await summaries[language!].move();
        await page.locator('main .deal-summary').waitFor({ timeout: 15_000 });
      },
    },
    { name: 'scores', path: `/#/games/${over.gameId}/scores`, as: 'me', ready: 'table' },
    { name: 'replay', path: `/#/games/${over.gameId}/replay`, as: 'me' },
    { name: 'turns', path: '/#/turns', as: 'me' },
    // The list, with the form that creates one.
    { name: 'tournaments', path: '/#/tournaments', as: 'me', ready: 'form' },
    { name: 'tournament', path: `/#/tournaments/${tournament}`, as: 'me' },
    { name: 'tournament-duplicate', path: `/#/tournaments/${duplicate}`, as: 'me' },
    { name: 'history', path: '/#/history', as: 'me', ready: 'table.list' },
    { name: 'settings', path: '/#/settings', as: 'me', ready: 'section[aria-labelledby="vacation-title"]' },
    { name: 'account', path: '/#/account', as: 'me' },
    { name: 'oauth-consent', path: `${consentPath.pathname}${consentPath.search}`, as: 'me' },
  ];
  return { me, other, screens };
}
