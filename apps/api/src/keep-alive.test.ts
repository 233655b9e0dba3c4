import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { quietFor } from '../../../test/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** GET on the agent's connection; whether it reused one. */
function get(agent: Agent, path: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.baseUrl}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Found by the soak: with Node's 5 s keep-alive, a player pausing between moves sent its next
// request just as the server closed the idle connection, and got a reset.
it('keeps an idle keep-alive connection open past a player’s pause of several seconds', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await get(agent, '/health')).toEqual({ status: 200, reused: false });
    await quietFor(6_000); // longer than Node's default 5 s, in which the server must not close it
    expect(await get(agent, '/health')).toEqual({ status: 200, reused: true });
  } finally {
    agent.destroy();
  }
}, 15_000);
