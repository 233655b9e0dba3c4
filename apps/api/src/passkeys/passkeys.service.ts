import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { TOKEN_SCOPES } from '../auth/scopes.js';
import { badInput, conflict, DomainError, forbidden, notFound, unauthenticated } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { SERVER_BOT_NAME } from '../players/players.service.js';
import { lockPlayerSql } from '../players/players.sql.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { SessionTokens } from '../sessions/models/session.model.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { Passkey, PasskeyChallenge } from './models/passkey.model.js';
import { sweepChallengesSql, useChallengeSql, usePasskeySql, type ChallengeKind } from './passkeys.sql.js';

/** How long a ceremony may take, from its start to its answer. */
export const CHALLENGE_MS = 5 * 60_000;
/** The largest credential (as JSON text) we read: a `none` attestation is well under 2 KiB. */
export const MAX_RESPONSE_CHARS = 32 * 1024;
const RP_NAME = 'Mizerka';
const DEFAULT_LABEL = 'Passkey';
const SWEEP_BATCH = 100;
/** A page at http(s)://localhost:PORT: outside production, passkeys belong to `localhost` then. */
const LOCAL_ORIGIN = /^https?:\/\/localhost(:\d{1,5})?$/;

const PASSKEY = { id: true, label: true, createdAt: true, lastUsedAt: true } as const;

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const credentialId = base64url(1400).min(1);
const extensions = z.record(z.string(), z.unknown()).optional().default({});
const attachment = z.enum(['platform', 'cross-platform']).optional();

const registrationShape = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(MAX_RESPONSE_CHARS),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensions,
});

const authenticationShape = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(2048),
    userHandle: base64url(128).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensions,
});

/**
 * The signature algorithms a new passkey may use (COSE ids: EdDSA, ES256, RS256). Named here, not
 * left to @simplewebauthn/server's default: on Node 24 that default puts ML-DSA-44 first (Node 20
 * cannot verify it), so a passkey made on one instance of a mixed or rolled-back fleet would not
 * sign in on another.
 */
export const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** The passkey's user handle: the player's id as its 16 bytes. */
const userHandleBytes = (playerId: string) => new Uint8Array(Buffer.from(playerId.replace(/-/g, ''), 'hex'));
const userHandleText = (playerId: string) => Buffer.from(userHandleBytes(playerId)).toString('base64url');

interface RelyingParty {
  rpID: string;
  origins: string[];
}

/**
 * Passkeys (WebAuthn): the second way to hold an account, and the better one — nothing to guess,
 * reuse or phish. A ceremony is begun (`start…`: options for the browser, a challenge kept in the
 * database for 5 minutes) and answered once (`finish…`: the browser's credential, checked by
 * @simplewebauthn/server). Passkeys are discoverable (resident): signing in needs no name, the
 * authenticator offers the player's passkeys for this site. The user handle is the player's id.
 */
@Injectable()
export class PasskeysService {
  private readonly rp: RelyingParty | null;
  private readonly production: boolean;
  private readonly perPlayer: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sessions: SessionsService,
    private readonly limiter: RateLimiter,
    config: ConfigService<AppConfig, true>,
  ) {
    const passkeys = config.get('passkeys', { infer: true });
    this.rp = passkeys.origins && passkeys.rpId ? { rpID: passkeys.rpId, origins: passkeys.origins } : null;
    this.production = config.get('nodeEnv', { infer: true }) === 'production';
    this.perPlayer = passkeys.perPlayer;
  }

  /** A sign-up begun: the name is checked now, so nobody makes a passkey for a name taken. */
  async startSignUp(name: string, origin: string | null, address: string): Promise<PasskeyChallenge> {
    if (SERVER_BOT_NAME.test(name)) throw badInput(`The name "${name}" is kept for the server's bots`, { field: 'name' });
    const rp = this.relyingParty(origin);
    if (await this.prisma.player.findUnique({ where: { nameKey: name.toLowerCase() }, select: { id: true } })) {
      throw conflict(`The name "${name}" is taken`);
    }
    await this.limiter.takePasskeyChallenge(address);
    const userHandle = randomUUID();
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: name,
      userDisplayName: name,
      userID: userHandleBytes(userHandle),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      timeout: CHALLENGE_MS,
    });
    return this.challenge('sign_up', options.challenge, options, { name, userHandle });
  }

  /** A new player with a passkey, signed in. Counts as a registration from `address`. */
  async finishSignUp(challengeId: string, response: unknown, origin: string | null, address: string, userAgent: string | null): Promise<SessionTokens> {
    const rp = this.relyingParty(origin);
    const challenge = await this.useChallenge(challengeId, 'sign_up', null);
    const credential = parseResponse(registrationShape, response) as RegistrationResponseJSON;
    const { name, user_handle: playerId } = challenge;
    if (!name || !playerId) throw new Error('A sign-up challenge without its name');
    const created = await this.verifyRegistration(credential, challenge.challenge, rp);
    const giveBack = await this.limiter.takeRegistration(address);
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.player.create({ data: { id: playerId, name, nameKey: name.toLowerCase(), kind: 'human' }, select: { id: true } });
        await tx.passkey.create({ data: { ...created, playerId, label: DEFAULT_LABEL }, select: { id: true } });
        return this.sessions.start({ playerId, method: 'passkey', scopes: TOKEN_SCOPES, userAgent }, tx);
      });
    } catch (error) {
      await giveBack();
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw conflict(`The name "${name}" is taken`);
      throw error;
    }
  }

  /** A sign-in begun: no name; the authenticator offers this site's passkeys. */
  async startSignIn(origin: string | null, address: string): Promise<PasskeyChallenge> {
    const rp = this.relyingParty(origin);
    await this.limiter.takePasskeyChallenge(address);
    const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'preferred', timeout: CHALLENGE_MS });
    return this.challenge('sign_in', options.challenge, options, {});
  }

  /** A session for the passkey's player, when its signature checks and its counter moved on. */
  async finishSignIn(challengeId: string, response: unknown, origin: string | null, userAgent: string | null): Promise<SessionTokens> {
    const rp = this.relyingParty(origin);
    const challenge = await this.useChallenge(challengeId, 'sign_in', null);
    const credential = parseResponse(authenticationShape, response) as AuthenticationResponseJSON;
    const passkey = await this.prisma.passkey.findUnique({ where: { credentialId: credential.id } });
    if (!passkey) throw unauthenticated('Unknown passkey: it belongs to no account here (removed, or made for another server)');
    const handle = credential.response.userHandle;
    if (handle && handle !== userHandleText(passkey.playerId)) throw unauthenticated('This passkey names another account than the one it belongs to');
    let counter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpID,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: Number(passkey.counter),
          transports: passkey.transports as AuthenticatorTransportFuture[],
        },
        requireUserVerification: false,
      });
      if (!verified.verified) throw unauthenticated("The passkey's signature does not check");
      counter = verified.authenticationInfo.newCounter;
    } catch (error) {
      throw refusal(error);
    }
    return this.prisma.$transaction(async (tx) => {
      const [used] = await queryRows(tx, usePasskeySql(passkey.id, counter));
      if (!used) throw cloned();
      return this.sessions.start({ playerId: used.player_id, method: 'passkey', scopes: TOKEN_SCOPES, userAgent }, tx);
    });
  }

  /** Adding a passkey to the caller's account begun; its passkeys are excluded (no second copy). */
  async startRegistration(caller: AuthenticatedPlayer, origin: string | null, address: string): Promise<PasskeyChallenge> {
    const rp = this.relyingParty(origin);
    await this.limiter.takePasskeyChallenge(address);
    const player = await this.prisma.player.findUniqueOrThrow({
      where: { id: caller.id },
      select: { name: true, passkeys: { select: { credentialId: true, transports: true }, take: this.perPlayer } },
    });
    if (player.passkeys.length >= this.perPlayer) throw this.tooMany();
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: player.name,
      userDisplayName: player.name,
      userID: userHandleBytes(caller.id),
      attestationType: 'none',
      excludeCredentials: player.passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransportFuture[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      timeout: CHALLENGE_MS,
    });
    return this.challenge('add', options.challenge, options, { playerId: caller.id });
  }

  /** The passkey added, under MAX_PASSKEYS_PER_PLAYER (counted with the player's row locked). */
  async finishRegistration(caller: AuthenticatedPlayer, challengeId: string, response: unknown, label: string | null | undefined, origin: string | null): Promise<Passkey> {
    const rp = this.relyingParty(origin);
    const challenge = await this.useChallenge(challengeId, 'add', caller.id);
    const credential = parseResponse(registrationShape, response) as RegistrationResponseJSON;
    const created = await this.verifyRegistration(credential, challenge.challenge, rp);
    return this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(caller.id));
      if ((await tx.passkey.count({ where: { playerId: caller.id } })) >= this.perPlayer) throw this.tooMany();
      return tx.passkey.create({ data: { ...created, playerId: caller.id, label: label ?? DEFAULT_LABEL }, select: PASSKEY });
    });
  }

  /** The caller's passkeys, oldest first (at most MAX_PASSKEYS_PER_PLAYER). */
  list(playerId: string): Promise<Passkey[]> {
    return this.prisma.passkey.findMany({ where: { playerId }, select: PASSKEY, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: this.perPlayer });
  }

  /** How many passkeys a player holds (the account's passkeyCount). */
  count(playerId: string): Promise<number> {
    return this.prisma.passkey.count({ where: { playerId } });
  }

  /** Removes one of the caller's passkeys: it signs in no more. Another player's is not found. */
  async remove(playerId: string, id: string): Promise<Passkey> {
    return this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(playerId));
      const found = await tx.passkey.findFirst({ where: { id, playerId }, select: PASSKEY });
      if (!found) throw notFound('Passkey');
      // The last way in may not go: with no password and no personal token, the account would be lost.
      if ((await tx.passkey.count({ where: { playerId } })) === 1) {
        const password = await tx.playerAccount.count({ where: { playerId, passwordHash: { not: null } } });
        const tokens = await tx.apiToken.count({
          where: { playerId, sessionId: null, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
        });
        if (password === 0 && tokens === 0) {
          throw conflict('This is your only way to sign in: set a password (or add another passkey) before removing it');
        }
      }
      await tx.passkey.deleteMany({ where: { id, playerId } });
      return found;
    });
  }

  /**
   * Where passkeys live: WEBAUTHN_ORIGINS (and WEBAUTHN_RP_ID); unset outside production, the
   * page's own origin when it is on localhost. WebAuthn itself refuses IP addresses.
   */
  private relyingParty(origin: string | null): RelyingParty {
    if (this.rp) return this.rp;
    if (this.production) throw forbidden("Passkeys are off on this server: its operator has not set WEBAUTHN_ORIGINS");
    if (origin && LOCAL_ORIGIN.test(origin)) return { rpID: 'localhost', origins: [origin] };
    throw badInput(
      `Passkeys work from a page at http://localhost:PORT while WEBAUTHN_ORIGINS is unset (an IP address will not do); this request came from ${origin ? `"${origin.slice(0, 100)}"` : 'no page (no Origin header)'}`,
      { field: 'origin' },
    );
  }

  private async challenge(kind: ChallengeKind, challenge: string, options: object, owner: { playerId?: string; name?: string; userHandle?: string }): Promise<PasskeyChallenge> {
    await queryRows(this.prisma, sweepChallengesSql(SWEEP_BATCH));
    const row = await this.prisma.passkeyChallenge.create({
      data: { kind, challenge, ...owner, expiresAt: new Date(Date.now() + CHALLENGE_MS) },
      select: { id: true },
    });
    return { challengeId: row.id, options: options as Record<string, unknown> };
  }

  private async useChallenge(id: string, kind: ChallengeKind, playerId: string | null) {
    const [row] = await queryRows(this.prisma, useChallengeSql(id, kind, playerId));
    if (!row) throw badInput('challengeId: no such challenge waits for this answer (unknown, already answered, or of another ceremony); begin again', { field: 'challengeId' });
    if (row.expires_at.getTime() <= Date.now()) throw badInput('challengeId: this challenge has expired (it lasts 5 minutes); begin again', { field: 'challengeId' });
    return row;
  }

  /** The new credential's columns, once the browser's answer checks. */
  private async verifyRegistration(credential: RegistrationResponseJSON, challenge: string, rp: RelyingParty) {
    let info;
    try {
      const verified = await verifyRegistrationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      });
      if (!verified.verified) throw badInput('response: the passkey could not be verified', { field: 'response' });
      info = verified.registrationInfo;
    } catch (error) {
      throw refusal(error);
    }
    if (await this.prisma.passkey.findUnique({ where: { credentialId: info.credential.id }, select: { id: true } })) {
      throw conflict('This passkey is registered already');
    }
    return {
      credentialId: info.credential.id,
      publicKey: new Uint8Array(info.credential.publicKey),
      counter: BigInt(info.credential.counter),
      transports: (credential.response.transports ?? []).slice(0, 10),
    };
  }

  private tooMany() {
    return conflict(`You have ${this.perPlayer} passkeys, the most allowed (MAX_PASSKEYS_PER_PLAYER); remove one first`, { limit: this.perPlayer });
  }
}

type AuthenticatorTransportFuture = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** The credential, checked for shape and size before the library reads it; a problem names its field. */
function parseResponse<S extends z.ZodType>(shape: S, response: unknown): z.output<S> {
  if (JSON.stringify(response).length > MAX_RESPONSE_CHARS) {
    throw badInput(`response: a credential is at most ${MAX_RESPONSE_CHARS} characters of JSON`, { field: 'response' });
  }
  const parsed = shape.safeParse(response);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['response', ...issue.path.map(String)].join('.');
    throw badInput(`${field}: ${issue.message}`, { field });
  }
  return parsed.data;
}

const cloned = () =>
  unauthenticated("This passkey's signature counter went backwards: a copy of it (a cloned authenticator) has been used; sign in another way and remove it");

/** The library's refusal as ours: the field it concerns, never a 500. */
function refusal(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const message = error instanceof Error ? error.message.slice(0, 300) : 'not a WebAuthn credential';
  if (/counter/i.test(message)) return cloned();
  if (/origin/i.test(message)) return badInput(`response: ${message}`, { field: 'response.clientDataJSON.origin' });
  if (/challenge/i.test(message)) return badInput(`response: ${message}`, { field: 'response.clientDataJSON.challenge' });
  if (/signature/i.test(message)) return unauthenticated(`The passkey's signature does not check: ${message}`);
  return badInput(`response: ${message}`, { field: 'response' });
}
