import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { FAST } from './bots.test-kit.js';

// examples/bot-client.mjs, run as it is documented: a separate Node process that knows only the
// public REST API, playing a bot account's seat against two server bots to the end of the game.
const CLIENT = fileURLToPath(new URL('../../../../examples/bot-client.mjs', import.meta.url));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(FAST);
});
afterAll(async () => {
  await t?.close();
});

function runClient(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const stop = setTimeout(() => child.kill(), 110_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(stop);
      resolve({ code, output });
    });
  });
}

describe('the example bot client', () => {
  it('plays a whole game through the public API for a bot account against two server bots', async () => {
    const made = await t.rest('POST', '/api/v1/players', { name: `client${process.pid % 10_000}`, bot: true });
    expect(made.body.player).toMatchObject({ kind: 'bot', botLevel: null });
    const token = made.body.token as string;
    const lobby = await t.rest('POST', '/api/v1/lobbies', { preset: 'bidding', options: { target: 40 } }, token);
    expect(lobby.status).toBe(201);
    await t.rest('POST', `/api/v1/lobbies/${lobby.body.id}/bots`, { level: 'random' }, token);
    const started = await t.rest('POST', `/api/v1/lobbies/${lobby.body.id}/bots`, { level: 'basic' }, token);
    const gameId = started.body.gameId as string;
    expect(gameId).toBeTruthy();

    const run = await runClient({ BASE_URL: t.baseUrl, BOT_TOKEN: token, GAME_ID: gameId, POLL_MS: '50' });
    expect(run.code, run.output).toBe(0);

    const prisma = t.app.get(PrismaService);
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(game.status).toBe('finished');
    const moves = await prisma.gameEvent.findMany({ where: { gameId, kind: { not: 'deal' } }, select: { seat: true, actor: true } });
    expect(moves.filter((m) => m.seat === 0).length).toBeGreaterThan(0);
    expect(moves.every((m) => (m.seat === 0 ? m.actor === 'player' : m.actor === 'bot'))).toBe(true);
  }, 120_000);

  it('registers a bot account of its own when given no token', async () => {
    // With a game id that is finished at once (unknown → 404), the client registers, looks once and stops on the error.
    const run = await runClient({ BASE_URL: t.baseUrl, BOT_NAME: `self${process.pid % 10_000}`, GAME_ID: '00000000-0000-4000-8000-000000000000', POLL_MS: '50' });
    const registered = JSON.parse(run.output.split('\n')[0]) as { registered: string; token: string };
    expect(registered.registered).toBe(`self${process.pid % 10_000}`);
    const me = await t.gql(`{ me { name kind botLevel } }`, {}, registered.token);
    expect(me.data!.me).toEqual({ name: registered.registered, kind: 'bot', botLevel: null });
  }, 30_000);
});
