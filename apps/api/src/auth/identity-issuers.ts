import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createRemoteJWKSet, decodeJwt, errors, importJWK, importSPKI, jwtVerify, type CryptoKey, type JWK, type JWTVerifyGetKey } from 'jose';
import { unauthenticated } from '../common/errors.js';
import { playerNameFrom } from '../common/player-names.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import type { IdentityIssuer } from '../config/identity-issuers.js';
import { HotSql } from '../prisma/hot-sql.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AuthenticatedPlayer } from './authenticated-player.js';
import { addIdentityPlayerSql, addIdentitySql, identityPlayerSql } from './identity.sql.js';

/** Three base64url parts: a JWS in compact form (an API token starts with `mzk_` and has no dot). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Longer than any provider's token with its usual claims; reading one costs no more than this. */
const MAX_JWT_LENGTH = 8192;
const MAX_SUBJECT_LENGTH = 255;
/** Names tried for a new player after the display name's own: `ala-2` … `ala-9`. */
const SUFFIXES = 8;

export function isJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

interface Trusted {
  config: IdentityIssuer;
  keys: JWTVerifyGetKey;
}

/** Another request made the user's player while this one was making it: this one's is rolled back. */
class LostRace extends Error {}

/**
 * Bearer JWTs of the identity providers a site trusts (IDENTITY_ISSUERS): the token is verified
 * (signature with the issuer's keys, an allowed asymmetric algorithm, `iss`, `aud`, `exp`, `nbf`)
 * and its user is a player of this server, made on the first use. Nothing of a token is logged and
 * a refusal says only what was wrong. A JWT of an issuer not configured is refused before any key
 * is fetched.
 */
@Injectable()
export class IdentityIssuers implements OnModuleInit {
  private readonly logger = new Logger(IdentityIssuers.name);
  private readonly byIssuer = new Map<string, Trusted>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: HotSql,
    config: ConfigService<AppConfig, true>,
  ) {
    for (const issuer of config.get('identityIssuers', { infer: true }) ?? []) {
      this.byIssuer.set(issuer.issuer, { config: issuer, keys: keysOf(issuer) });
    }
  }

  /** Whether any issuer is trusted: with none, a JWT is an unknown token like any other. */
  get any(): boolean {
    return this.byIssuer.size > 0;
  }

  /** A static key that is not a key for one of its issuer's algorithms stops the start, naming the issuer. */
  async onModuleInit(): Promise<void> {
    const list = [...this.byIssuer.values()];
    for (const [index, { config }] of list.entries()) {
      if (config.publicKey === undefined) continue;
      for (const alg of config.algorithms) {
        try {
          await importKey(config.publicKey, alg);
        } catch (error) {
          throw new Error(
            `IDENTITY_ISSUERS: [${index}].publicKey (${config.issuer}) is not a ${alg} public key: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
      }
    }
  }

  /** The player of a bearer JWT; UNAUTHENTICATED saying in general terms what was wrong. */
  async authenticate(token: string): Promise<AuthenticatedPlayer> {
    if (token.length > MAX_JWT_LENGTH) throw unauthenticated('This token is too long');
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthenticated('Malformed token');
    }
    const trusted = typeof issuer === 'string' ? this.byIssuer.get(issuer) : undefined;
    if (!trusted) throw unauthenticated('This token is from an untrusted issuer');
    const { config } = trusted;

    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, trusted.keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: config.algorithms,
        clockTolerance: config.clockToleranceSeconds,
        requiredClaims: ['exp', config.subjectClaim],
      }));
    } catch (error) {
      throw this.refusal(error, config);
    }
    const subject = payload[config.subjectClaim];
    if (typeof subject !== 'string' || subject === '' || subject.length > MAX_SUBJECT_LENGTH) {
      throw unauthenticated(`This token's "${config.subjectClaim}" claim is not a user id`);
    }
    const display = config.nameClaim === undefined ? undefined : payload[config.nameClaim];
    const player = await this.playerOf(config.issuer, subject, typeof display === 'string' ? display : null);
    return {
      id: player.id,
      name: player.name,
      // Not an api_tokens row: the re-check of live tokens passes it by (`issuer`); its own key in the caches.
      tokenId: `jwt:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`,
      sessionId: null,
      scopes: config.scopes,
      expiresAt: new Date((payload.exp as number) * 1000),
      issuer: config.issuer,
    };
  }

  /**
   * The issuer's user as a player, made when new: named from the display name (or `user-<hash>`),
   * the next free name on a collision. Two first uses at once make one player: the identity's
   * primary key lets one in, and the other rolls its player back and reads the winner's.
   */
  private async playerOf(issuer: string, subject: string, display: string | null): Promise<{ id: string; name: string }> {
    const [known] = await this.sql.rows(identityPlayerSql(issuer, subject));
    if (known) return known;
    try {
      return await this.prisma.$transaction(async (tx) => {
        for (const name of namesFor(issuer, subject, display)) {
          const [player] = await queryRows(tx, addIdentityPlayerSql(name));
          if (!player) continue;
          const [identity] = await queryRows(tx, addIdentitySql(issuer, subject, player.id));
          if (!identity) throw new LostRace();
          return player;
        }
        throw new Error('no free name for a new player'); // the last name is random: never reached
      });
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      const [winner] = await queryRows(this.prisma, identityPlayerSql(issuer, subject));
      if (!winner) throw error;
      return winner;
    }
  }

  /** What was wrong, in general terms; a key fetch that failed is the server's problem and is logged (without the token). */
  private refusal(error: unknown, config: IdentityIssuer): Error {
    if (error instanceof errors.JWTExpired) return unauthenticated('This token has expired');
    if (error instanceof errors.JWTClaimValidationFailed) {
      switch (error.claim) {
        case 'nbf':
          return unauthenticated('This token is not yet valid');
        case 'aud':
          return unauthenticated('This token is meant for another audience');
        case 'iss':
          return unauthenticated('This token is from an untrusted issuer');
        default:
          return unauthenticated(`This token lacks a valid "${error.claim}" claim`);
      }
    }
    if (error instanceof errors.JOSEAlgNotAllowed) return unauthenticated("This token's signature algorithm is not allowed");
    if (error instanceof errors.JWSSignatureVerificationFailed) return unauthenticated("This token's signature is not valid");
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
      return unauthenticated("This token is signed with a key its issuer does not publish");
    }
    if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return unauthenticated('Malformed token');
    if (error instanceof errors.JOSENotSupported) return unauthenticated("This token's key or algorithm is not supported");
    this.logger.warn(`fetching the signing keys of ${config.issuer} failed: ${error instanceof Error ? error.message : String(error)}`);
    return unauthenticated("This token's issuer's signing keys could not be fetched; try again later");
  }
}

/** The issuer's keys: its JWKS (cached; an unknown key id fetches again, at most once per cooldown), or its one static key. */
function keysOf(issuer: IdentityIssuer): JWTVerifyGetKey {
  if (issuer.jwksUrl !== undefined) {
    return createRemoteJWKSet(new URL(issuer.jwksUrl), {
      timeoutDuration: issuer.jwksTimeoutSeconds * 1000,
      cooldownDuration: issuer.jwksCooldownSeconds * 1000,
      cacheMaxAge: issuer.jwksCacheSeconds * 1000,
    });
  }
  const publicKey = issuer.publicKey!;
  const byAlg = new Map<string, Promise<CryptoKey>>();
  return (header) => {
    // jwtVerify has checked the algorithm against the allowed ones before it asks for a key.
    let key = byAlg.get(header.alg);
    if (!key) byAlg.set(header.alg, (key = importKey(publicKey, header.alg)));
    return key;
  };
}

async function importKey(publicKey: string | Record<string, unknown>, alg: string): Promise<CryptoKey> {
  const key = typeof publicKey === 'string' ? await importSPKI(publicKey, alg) : await importJWK({ ...publicKey, alg } as JWK, alg);
  if (key instanceof Uint8Array) throw new Error('a symmetric key');
  return key;
}

/** Names for a new player, in order: the display name, then it with `-2` … `-9`, then from the user's hash, then at random. */
function namesFor(issuer: string, subject: string, display: string | null): string[] {
  const base = display === null ? null : playerNameFrom(display);
  const hash = createHash('sha256').update(`${issuer}\0${subject}`).digest('hex');
  return [
    ...(base === null ? [] : [base, ...Array.from({ length: SUFFIXES }, (_, i) => `${base}-${i + 2}`)]),
    `user-${hash.slice(0, 8)}`,
    `user-${hash.slice(0, 16)}`,
    `user-${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`,
  ];
}
