import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A software authenticator for the tests: an ES256 key per passkey, `none` attestation, answers
// built as a browser would hand them over (@simplewebauthn/browser's JSON).

type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** Just enough CBOR: whole numbers, byte and text strings, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');
const challengeOf = (options: Record<string, unknown>) => String(options.challenge);

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly key: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;
  userHandle: string | null = null;

  constructor(
    private readonly rpId = 'localhost',
    readonly origin = 'http://localhost:5173',
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  /** navigator.credentials.create's answer to `options`, as RegistrationResponseJSON. */
  create(options: Record<string, unknown>, over: { origin?: string; challenge?: string } = {}) {
    const user = options.user as { id: string };
    this.userHandle = user.id;
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([this.authHeader(0x45), Buffer.alloc(16), idLength, this.credentialId, cbor(coseKey)]);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: this.clientData('webauthn.create', over.challenge ?? challengeOf(options), over.origin), attestationObject: b64(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get's answer, signed with this passkey, as AuthenticationResponseJSON. */
  get(options: Record<string, unknown>, over: { origin?: string; counter?: number } = {}) {
    if (over.counter !== undefined) this.counter = over.counter;
    else this.counter += 1;
    const authData = this.authHeader(0x05);
    const clientDataJSON = this.clientData('webauthn.get', challengeOf(options), over.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), this.key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64(authData), signature: b64(signature), ...(this.userHandle ? { userHandle: this.userHandle } : {}) },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private authHeader(flags: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), counter]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return b64(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }
}
