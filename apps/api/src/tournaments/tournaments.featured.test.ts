import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { loadConfig } from '../config/app-config.js';

// Featured events (issue 28): only a tournament admin (TOURNAMENT_ADMINS, with an admin-scope token)
// creates one; the list finds them with `featured: true`. No games are played here.
const ADMIN = `tad${process.pid % 10_000}x${Date.now() % 100_000}`;
const PLAYER = `tpl${process.pid % 10_000}x${Date.now() % 100_000}`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id featured } }`;
const LIST = `query($featured: Boolean) { tournaments(featured: $featured, first: 50) { items { id featured } } }`;
const INPUT = { preset: 'bidding', options: { target: 1 }, format: 'swiss', formatOptions: { rounds: 2 }, startsAt: new Date(Date.now() + 86_400_000).toISOString() };

describe('featured tournaments', () => {
  let t: TestApp;
  let admin: { id: string; token: string };
  let player: { id: string; token: string };
  beforeAll(async () => {
    const base = loadConfig({ NODE_ENV: 'test' });
    // Named in any case: the names are compared case-blind.
    t = await startTestApp({ tournaments: { ...base.tournaments, admins: [ADMIN.toLowerCase()] } });
    admin = await t.register(ADMIN.toUpperCase());
    player = await t.register(PLAYER);
  });
  afterAll(async () => t?.close());

  it('lets an admin create a featured event, listed as featured and found by the filter over GraphQL and REST', async () => {
    const made = await t.gql(CREATE, { input: { ...INPUT, name: 'Grand Prix', featured: true } }, admin.token);
    expect(made.errors).toBeUndefined();
    expect(made.data!.createTournament.featured).toBe(true);
    const id = made.data!.createTournament.id as string;
    const plain = await t.gql(CREATE, { input: { ...INPUT, name: 'Friday Swiss' } }, player.token);
    expect(plain.data!.createTournament.featured).toBe(false);
    const plainId = plain.data!.createTournament.id as string;

    const featured = (await t.gql(LIST, { featured: true })).data!.tournaments.items as { id: string; featured: boolean }[];
    expect(featured).toContainEqual({ id, featured: true });
    expect(featured.every((x) => x.featured)).toBe(true);
    expect(featured.map((x) => x.id)).not.toContain(plainId);
    const others = (await t.gql(LIST, { featured: false })).data!.tournaments.items as { id: string }[];
    expect(others.map((x) => x.id)).toContain(plainId);
    expect(others.map((x) => x.id)).not.toContain(id);
    const all = (await t.gql(LIST, {})).data!.tournaments.items as { id: string }[];
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([id, plainId]));

    const rest = await t.rest('GET', '/api/v1/tournaments?featured=true&first=50');
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((x: { id: string }) => x.id)).toContain(id);
    expect(rest.body.items.every((x: { featured: boolean }) => x.featured)).toBe(true);
    expect((await t.rest('GET', `/api/v1/tournaments/${id}`)).body.featured).toBe(true);
    expect((await t.rest('GET', '/api/v1/tournaments?featured=maybe')).status).toBe(400);
  });

  it('refuses featured to anyone else, and to an admin whose token lacks the admin scope, naming the field', async () => {
    const refused = await t.gql(CREATE, { input: { ...INPUT, name: 'Mine', featured: true } }, player.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'featured' });
    const overRest = await t.rest('POST', '/api/v1/tournaments', { ...INPUT, name: 'Mine', featured: true }, player.token);
    expect(overRest.status).toBe(403);
    expect(JSON.stringify(overRest.body)).toContain('featured');

    const minted = await t.gql('mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { token } }', { input: { name: 'bot', scopes: ['read', 'play'] } }, admin.token);
    const playOnly = minted.data!.createApiToken.token as string;
    const narrow = await t.gql(CREATE, { input: { ...INPUT, name: 'By a bot', featured: true } }, playOnly);
    expect(narrow.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'featured' });
    // Without featured, the same token creates as any player.
    expect((await t.gql(CREATE, { input: { ...INPUT, name: 'By a bot' } }, playOnly)).data!.createTournament.featured).toBe(false);
  });
});
