import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of the
// key; a signature is `v1,` + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`.

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (192 bits), as the spec's libraries accept it. */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` header for one attempt: one signature per secret, space-separated (during
 * a rotation the new secret's and the old one's, so a receiver holding either verifies it).
 */
export function sign(secrets: string | readonly (string | null)[], id: string, timestamp: number, body: string): string {
  return (typeof secrets === 'string' ? [secrets] : secrets)
    .filter((secret) => secret !== null)
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
