// Routing by the URL's hash (/#/games/<id>): the server serves the page at / (and at the few paths
// links from outside point at, PATH_ROUTES), so every screen is a fragment of the one page, and a
// reload lands on the same screen.
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'lobbies' }
  | { screen: 'lobby'; lobbyId: string }
  | { screen: 'join'; inviteCode: string }
  | { screen: 'table'; gameId: string }
  | { screen: 'scores'; gameId: string }
  | { screen: 'replay'; gameId: string }
  | { screen: 'turns' }
  | { screen: 'tournaments' }
  | { screen: 'tournament'; tournamentId: string; inviteCode: string }
  | { screen: 'history' }
  | { screen: 'account' }
  | { screen: 'settings' }
  | { screen: 'oauthConsent'; requestId: string }
  | { screen: 'sign-in' }
  | { screen: 'sign-up' }
  | { screen: 'forgot-password' }
  | { screen: 'verify-email'; token: string }
  | { screen: 'reset-password'; token: string };

/**
 * Paths the server also serves the page at, because links from outside point there (mail:
 * /verify-email?token=…, /reset-password?token=…; an app asking for consent: /oauth/consent).
 * apps/api/src/common/web-client.ts lists the same.
 */
export const PATH_ROUTES = ['/sign-in', '/sign-up', '/account', '/verify-email', '/reset-password', '/oauth/consent'];

/** A page opened at one of PATH_ROUTES moves to its hash route, the token leaving the address bar's path. */
export function adoptPathRoute() {
  if (!PATH_ROUTES.includes(location.pathname)) return;
  history.replaceState(null, '', `/#${location.pathname}${location.search}`);
}

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const param = (name: string) => new URLSearchParams(query).get(name) ?? '';
  const [first, id, sub] = parts;
  if (first === 'lobbies' && id) return { screen: 'lobby', lobbyId: id };
  if (first === 'join' && id) return { screen: 'join', inviteCode: id };
  if (first === 'games' && id) {
    if (sub === 'scores') return { screen: 'scores', gameId: id };
    if (sub === 'replay') return { screen: 'replay', gameId: id };
    return { screen: 'table', gameId: id };
  }
  if (first === 'turns') return { screen: 'turns' };
  if (first === 'tournaments') return id ? { screen: 'tournament', tournamentId: id, inviteCode: param('code') } : { screen: 'tournaments' };
  if (first === 'history') return { screen: 'history' };
  if (first === 'account') return { screen: 'account' };
  if (first === 'settings') return { screen: 'settings' };
  if (first === 'sign-in') return { screen: 'sign-in' };
  if (first === 'sign-up') return { screen: 'sign-up' };
  if (first === 'forgot-password') return { screen: 'forgot-password' };
  if (first === 'verify-email') return { screen: 'verify-email', token: param('token') };
  if (first === 'reset-password') return { screen: 'reset-password', token: param('token') };
  // adoptPathRoute moves /oauth/consent?request=… here.
  if (first === 'oauth' && id === 'consent') return { screen: 'oauthConsent', requestId: param('request') };
  return { screen: 'lobbies' };
}

export const href = {
  lobbies: () => '#/lobbies',
  lobby: (id: string) => `#/lobbies/${encodeURIComponent(id)}`,
  join: (code: string) => `#/join/${encodeURIComponent(code)}`,
  table: (id: string) => `#/games/${encodeURIComponent(id)}`,
  scores: (id: string) => `#/games/${encodeURIComponent(id)}/scores`,
  replay: (id: string) => `#/games/${encodeURIComponent(id)}/replay`,
  turns: () => '#/turns',
  tournaments: () => '#/tournaments',
  /** With an invite tournament's code: the invite link. */
  tournament: (id: string, inviteCode?: string) => `#/tournaments/${encodeURIComponent(id)}${inviteCode ? `?code=${encodeURIComponent(inviteCode)}` : ''}`,
  history: () => '#/history',
  account: () => '#/account',
  settings: () => '#/settings',
  signIn: () => '#/sign-in',
  signUp: () => '#/sign-up',
  forgotPassword: () => '#/forgot-password',
};

export function navigate(to: string) {
  location.hash = to;
}

/** The consent page is a path of its own (GET /oauth/authorize sends apps' users to it); every other screen is a hash. */
export function routeOf(where: Pick<Location, 'pathname' | 'search' | 'hash'>): Route {
  if (where.pathname === '/oauth/consent' && where.hash.replace(/^#\/?/, '') === '') {
    return { screen: 'oauthConsent', requestId: new URLSearchParams(where.search).get('request') ?? '' };
  }
  return parseRoute(where.hash);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location));
  useEffect(() => {
    const update = () => setRoute(routeOf(location));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
