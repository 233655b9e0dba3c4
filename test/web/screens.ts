// Every screen of the web client, with the data it needs made through the API: the quality test
// (test/web/quality.test.ts) opens each in every language at phone and desktop size.
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestApp } from '../app.js';

export const LANGUAGES = ['en', 'de', 'ja', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The sizes every screen is checked at: two phones (the smallest supported) and a desktop. */
export const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'phone-small', width: 360, height: 640 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

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
  /** Who is signed in: me (the player with the games), other (a second player, not seated at my games), or no one. */
  as: 'me' | 'other' | null;
  /** A selector the screen shows once its data is there (besides main h1). */
  ready?: string;
  /** Before the checks: open a section, a dialog, … */
  prepare?: (page: Page) => Promise<void>;
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
