import { z } from 'zod';

// IDENTITY_ISSUERS: the identity providers whose JWTs are accepted as bearer tokens (a site that
// has its users already: Auth0, Keycloak, Supabase, Firebase, its own OpenID provider). The value
// is JSON, a list of issuers; each is checked here at start, so a typo stops the server with the
// field named instead of refusing every player's token later.

/**
 * Signature algorithms an issuer may use: asymmetric only. HMAC (HS256…) would let anyone who has
 * the issuer's public key sign with it as the secret; `none` signs nothing.
 */
export const ISSUER_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type IssuerAlgorithm = (typeof ISSUER_ALGORITHMS)[number];

/** What an issuer's players may do: never `admin` (managing API tokens stays with the issuer's own sign-in). */
export const ISSUER_SCOPES = ['read', 'play'] as const;

const CLAIM = z.string().regex(/^[A-Za-z_][\w:.\-/]{0,63}$/, 'expected a claim name (letters, digits, _ : . - /, at most 64)');

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** Keys fetched over plain http could be swapped on the way: https, or http to this machine only (tests, a sidecar). */
const keysUrl = z.string().refine((raw) => {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  } catch {
    return false;
  }
}, 'expected an https URL (http only to a loopback address)');

/** A public JWK: no private part, no shared secret. */
const publicJwk = z
  .object({ kty: z.enum(['RSA', 'EC', 'OKP'], { error: 'expected an RSA, EC or OKP public key (kty)' }) })
  .catchall(z.unknown())
  .refine((jwk) => !('d' in jwk), 'expected a public key, but this JWK holds a private one (d)');

const issuerSchema = z
  .strictObject({
    /** The `iss` its tokens carry, exactly. */
    issuer: z.string().min(1).max(512),
    /** The `aud` its tokens must carry (one of them, when a list). */
    audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    /** Where its signing keys are published (JWKS); fetched when needed and cached. */
    jwksUrl: keysUrl.optional(),
    /** Or its one signing key: a PEM public key (SPKI) or a public JWK. */
    publicKey: z.union([z.string().includes('-----BEGIN PUBLIC KEY-----', { message: 'expected a PEM public key (-----BEGIN PUBLIC KEY-----)' }), publicJwk]).optional(),
    algorithms: z.array(z.enum(ISSUER_ALGORITHMS, { error: `expected one of ${ISSUER_ALGORITHMS.join(', ')} (never none or HMAC)` })).min(1).default(['RS256']),
    /** The claim naming the user at the issuer: the player is this claim's value (with the issuer). */
    subjectClaim: CLAIM.default('sub'),
    /** A claim with the user's display name, for the player's name when it is made. */
    nameClaim: CLAIM.optional(),
    scopes: z.array(z.enum(ISSUER_SCOPES, { error: 'expected read or play (an issuer\'s players never get admin)' })).min(1).default(['read', 'play']),
    clockToleranceSeconds: z.number().int().min(0).max(300).default(30),
    /** How long fetched keys are used before they are fetched again. */
    jwksCacheSeconds: z.number().int().min(1).max(86_400).default(600),
    /** After a fetch, a token with an unknown key id does not fetch again for this long. */
    jwksCooldownSeconds: z.number().int().min(1).max(3600).default(30),
    jwksTimeoutSeconds: z.number().int().min(1).max(60).default(5),
  })
  .refine((i) => (i.jwksUrl === undefined) !== (i.publicKey === undefined), {
    message: 'expected exactly one of jwksUrl and publicKey',
    path: ['jwksUrl'],
  });

export type IdentityIssuer = z.output<typeof issuerSchema>;

export const identityIssuersSchema = z
  .array(issuerSchema)
  .max(20)
  .refine((list) => new Set(list.map((i) => i.issuer)).size === list.length, 'expected each issuer once');

/** The issuers in the variable's text, or the problems, each naming its field (`[0].audience: …`). */
export function readIdentityIssuers(raw: string): { issuers: IdentityIssuer[] } | { problems: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { problems: 'expected JSON: a list of issuers ([{"issuer": …, "audience": …, "jwksUrl": …}])' };
  }
  const parsed = identityIssuersSchema.safeParse(json);
  if (parsed.success) return { issuers: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
    return `${field === '' ? 'the list' : field.replace(/^\./, '')}: ${issue.message}`;
  });
  return { problems: problems.join('; ') };
}
