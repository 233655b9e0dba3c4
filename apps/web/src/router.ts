// Routing by the URL's hash (/#/games/<id>): the server serves only / and /assets/*, so every
// screen is a fragment of the one page, and a reload lands on the same screen.
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'lobbies' }
  | { screen: 'lobby'; lobbyId: string }
  | { screen: 'join'; inviteCode: string }
  | { screen: 'table'; gameId: string }
  | { screen: 'scores'; gameId: string }
  | { screen: 'replay'; gameId: string }
  | { screen: 'turns' }
  | { screen: 'history' }
  | { screen: 'account' }
  | { screen: 'oauthConsent'; requestId: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, id, sub] = parts;
  if (first === 'lobbies' && id) return { screen: 'lobby', lobbyId: id };
  if (first === 'join' && id) return { screen: 'join', inviteCode: id };
  if (first === 'games' && id) {
    if (sub === 'scores') return { screen: 'scores', gameId: id };
    if (sub === 'replay') return { screen: 'replay', gameId: id };
    return { screen: 'table', gameId: id };
  }
  if (first === 'turns') return { screen: 'turns' };
  if (first === 'history') return { screen: 'history' };
  if (first === 'account') return { screen: 'account' };
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
  history: () => '#/history',
  account: () => '#/account',
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
