import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import type { Resolver } from './url-safety.js';
import { systemNetwork, WEBHOOK_NETWORK, type WebhookNetwork } from './webhook-transport.js';
import { addFeedEvents, startReceiver, waitFor, webhookTestConfig, type Receiver } from './webhooks.test-kit.js';

// The address rules end to end: at creation (a BAD_INPUT naming `url`) and at each attempt (a
// failed attempt), and in every case no connection is opened to the refused address. The app's
// WebhookNetwork is the test's: its `open`, the one function that opens a webhook connection,
// records each one, and names resolve through a stub: no test ever leaves this machine.

const NAMES: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'loopback.test': ['127.0.0.1'],
  'private.test': ['10.20.30.40'],
  'mixed.test': ['93.184.216.34', '172.16.5.4'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:10.0.0.1'],
};
const stubResolver =
  (names: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = names[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id url } } }`;

/** The system's network behind a resolver and extra request options the test may change as it goes. */
function testNetwork(resolve: Resolver) {
  const network = {
    resolve: (host: string) => network.resolver(host),
    resolver: resolve,
    /** Added to every request's options (a CA to trust). */
    extra: {} as https.RequestOptions,
    /** The options of every connection opened since the test last cleared it. */
    opened: [] as http.RequestOptions[],
    open(url: URL, options: http.RequestOptions) {
      network.opened.push(options);
      return systemNetwork.open(url, { ...options, ...network.extra });
    },
  };
  return network;
}

function seams(network: WebhookNetwork) {
  return [{ provide: WEBHOOK_NETWORK, useValue: network }];
}

describe('at creation, without the test setting (production rules)', () => {
  let t: TestApp;
  let token: string;
  const network = testNetwork(stubResolver(NAMES));
  beforeAll(async () => {
    t = await startTestApp(webhookTestConfig({ allowHttpLoopback: false }), undefined, seams(network));
    token = (await t.register('ssrfstrict')).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['http://10.0.0.1/', /must start with https:\/\//],
    ['http://169.254.169.254/latest/meta-data/', /must start with https:\/\//],
    ['http://[::1]/', /must start with https:\/\//],
    ['https://10.0.0.1/', /10\.0\.0\.1, a private address/],
    ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254, a link-local address/],
    ['https://[::1]:8443/', /::1, a loopback address/],
    ['https://127.0.0.1/', /loopback/],
    ['https://2130706433/', /127\.0\.0\.1, a loopback/],
    ['https://[::ffff:169.254.169.254]/', /link-local address .*in IPv4-mapped IPv6 form/],
    ['https://[fd00::1]/', /unique local/],
    ['https://loopback.test/hook', /loopback\.test\) that resolves to 127\.0\.0\.1, a loopback address/],
    ['https://private.test/hook', /resolves to 10\.20\.30\.40, a private address/],
    ['https://mixed.test/hook', /resolves to 172\.16\.5\.4, a private address/],
    ['https://metadata.test/', /169\.254\.169\.254/],
    ['https://mapped.test/', /IPv4-mapped/],
    ['https://nowhere.test/', /does not resolve \(ENOTFOUND\)/],
    ['file:///etc/passwd', /must start with https:\/\/ \(not file:\/\/\)/],
    ['ftp://public.test/x', /must start with https:\/\//],
    ['https://user:secret@public.test/hook', /credentials/],
    ['https://token@public.test/hook', /credentials/],
  ])('refuses %s with BAD_INPUT naming url, connecting nowhere', async (url, why) => {
    network.opened = [];
    const rest = await t.rest('POST', '/api/v1/me/webhooks', { url, eventTypes: ['yourTurn'] }, token);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'BAD_INPUT', field: 'url' });
    expect(rest.body.detail).toMatch(why);
    const gql = await t.gql(CREATE, { input: { url, eventTypes: ['yourTurn'] } }, token);
    expect(gql.errors?.[0].extensions).toMatchObject({ code: 'BAD_INPUT', field: 'url' });
    expect(network.opened).toHaveLength(0);
  });

  it('refuses a bad URL on update too, and keeps the old one', async () => {
    const created = await t.rest('POST', '/api/v1/me/webhooks', { url: 'https://public.test/hook', eventTypes: ['yourTurn'] }, token);
    expect(created.status).toBe(201);
    const id = created.body.endpoint.id as string;
    network.opened = [];
    const answer = await t.rest('PATCH', `/api/v1/me/webhooks/${id}`, { url: 'https://private.test/x' }, token);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('url');
    expect((await t.rest('GET', `/api/v1/me/webhooks/${id}`, undefined, token)).body.url).toBe('https://public.test/hook');
    expect(network.opened).toHaveLength(0);
  });
});

describe('at each attempt (the test setting allows loopback, nothing else)', () => {
  let t: TestApp;
  let me: { id: string; token: string };
  const receivers: Receiver[] = [];
  const names: Record<string, string[]> = {};
  const network = testNetwork(stubResolver(names));
  beforeAll(async () => {
    t = await startTestApp(webhookTestConfig({ retrySchedule: [1] }), undefined, seams(network));
    me = await t.register('ssrfloose');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(answer?: Receiver['answer']) {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function failedDelivery(endpointId: string) {
    return waitFor(async () => {
      const log = (await t.rest('GET', `/api/v1/me/webhooks/${endpointId}/deliveries`, undefined, me.token)).body.deliveries;
      return log[0]?.status === 'failed' ? log[0] : undefined;
    }, 10_000, 'a failed delivery');
  }

  it('still refuses private and link-local addresses at creation', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://192.168.1.1/', 'http://[fe80::1]/']) {
      const answer = await t.rest('POST', '/api/v1/me/webhooks', { url, eventTypes: ['yourTurn'] }, me.token);
      expect(answer.status, url).toBe(400);
      expect(answer.body.field).toBe('url');
    }
  });

  it('judges the address again at delivery: a name that now resolves to 10.x fails without a connection', async () => {
    const r = await receiver();
    names['rebind.test'] = ['127.0.0.1'];
    const created = await t.rest('POST', '/api/v1/me/webhooks', { url: `http://rebind.test:${r.port}/hook`, eventTypes: ['lobbyJoined'] }, me.token);
    expect(created.status).toBe(201);
    names['rebind.test'] = ['10.0.0.1']; // DNS changed since
    network.opened = [];
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    const delivery = await failedDelivery(created.body.endpoint.id);
    expect(delivery.attemptLog).toHaveLength(2);
    for (const a of delivery.attemptLog) {
      expect(a.statusCode).toBeNull();
      expect(a.error).toMatch(/^refused before connecting: .*resolves to 10\.0\.0\.1, a private address/);
    }
    expect(network.opened).toHaveLength(0);
    expect(r.requests).toHaveLength(0);
    await t.rest('DELETE', `/api/v1/me/webhooks/${created.body.endpoint.id}`, undefined, me.token);
  });

  it('connects to the address it judged, not to a second DNS answer', async () => {
    const r = await receiver();
    let calls = 0;
    // The first answer passes; any later one would lead to a private address.
    network.resolver = async (host) => {
      calls++;
      if (host !== 'flip.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return [{ address: calls % 2 === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    try {
      const created = await t.rest('POST', '/api/v1/me/webhooks', { url: `http://flip.test:${r.port}/hook`, eventTypes: ['lobbyJoined'] }, me.token);
      expect(created.status).toBe(201);
      calls = 0;
      network.opened = [];
      await addFeedEvents(t, me.id, ['lobbyJoined']);
      await waitFor(() => r.requests.length === 1, 10_000, 'a delivery');
      expect(network.opened).toHaveLength(1);
      expect(calls).toBe(1); // the socket did not resolve the name again
      expect(r.requests[0].headers.host).toBe(`flip.test:${r.port}`);
      await t.rest('DELETE', `/api/v1/me/webhooks/${created.body.endpoint.id}`, undefined, me.token);
    } finally {
      network.resolver = stubResolver(names);
    }
  });

  it('does not follow a redirect to http://10.0.0.1/: the attempt fails with the 3xx', async () => {
    const r = await receiver(() => ({ status: 302, headers: { location: 'http://10.0.0.1/' } }));
    const created = await t.rest('POST', '/api/v1/me/webhooks', { url: r.url, eventTypes: ['lobbyJoined'] }, me.token);
    network.opened = [];
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    const delivery = await failedDelivery(created.body.endpoint.id);
    expect(delivery.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([302, 302]);
    expect(delivery.attemptLog[0].error).toBe('HTTP 302: redirects are not followed (to http://10.0.0.1/)');
    // One connection per attempt, each to the receiver on 127.0.0.1; none to 10.0.0.1.
    expect(network.opened).toHaveLength(2);
    for (const options of network.opened) expect(options).toMatchObject({ hostname: '127.0.0.1', port: r.port });
    expect(r.requests).toHaveLength(2);
  });

  it('speaks TLS to the pinned address, checking the certificate against the host name', async () => {
    const served: { servername: string | false | null }[] = [];
    const server = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
      served.push({ servername: (req.socket as TLSSocket).servername });
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      names['hook.test'] = ['127.0.0.1'];
      const created = await t.rest('POST', '/api/v1/me/webhooks', { url: `https://hook.test:${port}/hook`, eventTypes: ['lobbyJoined'] }, me.token);
      expect(created.status).toBe(201);
      const id = created.body.endpoint.id as string;
      const firstAttempt = () =>
        waitFor(async () => {
          const log = (await t.rest('GET', `/api/v1/me/webhooks/${id}/deliveries`, undefined, me.token)).body.deliveries;
          return log[0]?.attemptLog.length > 0 ? log[0] : undefined;
        }, 10_000, 'an attempt');
      // A certificate no CA vouches for is refused: verification is on.
      await addFeedEvents(t, me.id, ['lobbyJoined']);
      const refused = await firstAttempt();
      expect(refused.attemptLog[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/self[- ]signed/i) });
      await t.rest('DELETE', `/api/v1/me/webhooks/${id}`, undefined, me.token);

      // Trusting the test certificate, the request reaches the server with SNI for hook.test.
      network.extra = { ca: TEST_CERT };
      const trusted = await t.rest('POST', '/api/v1/me/webhooks', { url: `https://hook.test:${port}/hook`, eventTypes: ['lobbyJoined'] }, me.token);
      served.length = 0;
      await addFeedEvents(t, me.id, ['lobbyJoined']);
      await waitFor(async () => {
        const log = (await t.rest('GET', `/api/v1/me/webhooks/${trusted.body.endpoint.id}/deliveries`, undefined, me.token)).body.deliveries;
        return log[0]?.status === 'delivered' ? log[0] : undefined;
      }, 10_000, 'a delivery over TLS');
      expect(served).toEqual([{ servername: 'hook.test' }]);
      await t.rest('DELETE', `/api/v1/me/webhooks/${trusted.body.endpoint.id}`, undefined, me.token);
    } finally {
      network.extra = {};
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads at most 64 KiB of an answer', async () => {
    const r = await receiver(() => ({ status: 200, body: 'x'.repeat(1024 * 1024) }));
    const created = await t.rest('POST', '/api/v1/me/webhooks', { url: r.url, eventTypes: ['lobbyJoined'] }, me.token);
    await addFeedEvents(t, me.id, ['lobbyJoined']);
    const delivery = await waitFor(async () => {
      const log = (await t.rest('GET', `/api/v1/me/webhooks/${created.body.endpoint.id}/deliveries`, undefined, me.token)).body.deliveries;
      return log[0]?.status === 'delivered' ? log[0] : undefined;
    }, 10_000, 'a delivery');
    expect(delivery.attemptLog[0]).toMatchObject({ statusCode: 200, error: null });
  });
});

// A throw-away self-signed certificate for hook.test (P-256, valid to 2126), for the TLS test only.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgv+3RDiAx2QlO25/8
H5bjFy8HErMofiESrZcdbD7x7xuhRANCAAQampUTWRRf5z7mWXV3PQZY/WEJAI4q
rNictI3JJBu1aek/RhKnk39hsKsMLyX7Quyo9jU2K4jtW9tlF1l74628
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBlDCCATugAwIBAgIUWsA8M6hLuo3j0/ByylcmZYBtR6swCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJaG9vay50ZXN0MCAXDTI2MTEzMDE5NDM1MloYDzIxMjYxMTA2
MTk0MzUyWjAUMRIwEAYDVQQDDAlob29rLnRlc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQampUTWRRf5z7mWXV3PQZY/WEJAI4qrNictI3JJBu1aek/RhKnk39h
sKsMLyX7Quyo9jU2K4jtW9tlF1l74628o2kwZzAdBgNVHQ4EFgQUHBr6votbaY0V
GoUlgkgWSxcGu3kwHwYDVR0jBBgwFoAUHBr6votbaY0VGoUlgkgWSxcGu3kwDwYD
VR0TAQH/BAUwAwEB/zAUBgNVHREEDTALgglob29rLnRlc3QwCgYIKoZIzj0EAwID
RwAwRAIgDVYpBcLI608/OQnbhk9JMUk5FxLD+c+Gdw5kDA2lABACIBM7LI15RExV
vezyh/95w6c5SN/2igmnQkLBaFoZTLPJ
-----END CERTIFICATE-----
`;
