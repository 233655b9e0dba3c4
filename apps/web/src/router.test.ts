import { describe, expect, it } from 'vitest';
import { href, routeOf } from './router';

// GET /oauth/authorize sends the browser to /oauth/consent?request=<id>: a path, not a hash.
describe('routeOf', () => {
  it('finds the consent page by its path and request, and every other screen by the hash', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(routeOf({ pathname: '/oauth/consent', search: `?request=${id}`, hash: '' })).toEqual({ screen: 'oauthConsent', requestId: id });
    expect(routeOf({ pathname: '/oauth/consent', search: '', hash: '' })).toEqual({ screen: 'oauthConsent', requestId: '' });
    // Leaving the consent page by a link: the hash wins.
    expect(routeOf({ pathname: '/oauth/consent', search: `?request=${id}`, hash: '#/account' })).toEqual({ screen: 'account' });
    expect(routeOf({ pathname: '/', search: '', hash: '#/history' })).toEqual({ screen: 'history' });
    // Where adoptPathRoute moves the consent path on load.
    expect(routeOf({ pathname: '/', search: '', hash: `#/oauth/consent?request=${id}` })).toEqual({ screen: 'oauthConsent', requestId: id });
    expect(routeOf({ pathname: '/', search: '?request=x', hash: '' })).toEqual({ screen: 'lobbies' });
  });

  it('reads a tournament and its invite code, and makes the links it reads', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(routeOf({ pathname: '/', search: '', hash: '#/tournaments' })).toEqual({ screen: 'tournaments' });
    expect(routeOf({ pathname: '/', search: '', hash: href.tournament(id) })).toEqual({ screen: 'tournament', tournamentId: id, inviteCode: '' });
    expect(routeOf({ pathname: '/', search: '', hash: href.tournament(id, 'AB CD') })).toEqual({ screen: 'tournament', tournamentId: id, inviteCode: 'AB CD' });
  });
});
