import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

// A loopback "push service" and a browser's side of a subscription, for the push tests (the API's
// and the browser's): the service records what it is sent; the device decrypts it as a browser would.

export interface Pushed {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on 127.0.0.1: records each request, answers by the device's path (201 unless told). */
export async function startPushService() {
  const requests: Pushed[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const status = answers.get(path)?.shift() ?? 201;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    /** The next answers to a device's path, in order (then 201). */
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of a subscription: its key pair and auth secret. */
export class Device {
  readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }

  get keys() {
    return { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') };
  }

  /** What the push service got, decrypted as the browser does (RFC 8291, aes128gcm). */
  open(body: Buffer): unknown {
    return JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: this.ecdh, authSecret: this.auth }).toString('utf8'));
  }
}

