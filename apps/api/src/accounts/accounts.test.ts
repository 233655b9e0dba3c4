import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../../../test/mail-receiver.js';
import { createTestDatabase } from '../../../../test/database.js';
import { createApp } from '../app.js';
import { createPino } from '../common/logger.js';
import { loadConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { hashPassword } from './password-hash.js';
import { PASSWORD_COST } from './accounts.service.js';
import { Mailer } from './mailer.js';

// Accounts people keep: sign up and sign in with a password, failed sign-ins locked, a password
// added or changed, an email verified and a password reset through links mailed to a real SMTP
// receiver on loopback.

let receiver: MailReceiver;
let inbox: ReceivedMail[] = [];
let smtpUrl: string;
// Cheap hashes for the tests (the real cost takes about a second a hash on a busy machine); the
// real one is tested in password-hash.test.ts.
const TEST_COST = { ln: 11, r: 8, p: 1 };
const seams = [{ provide: PASSWORD_COST, useValue: TEST_COST }];

let t: TestApp;
beforeAll(async () => {
  receiver = await startMailReceiver();
  inbox = receiver.inbox;
  smtpUrl = receiver.url;
  t = await startTestApp(
    {
      mail: { smtpUrl, from: 'Mizerka <mizerka@localhost>', publicUrl: 'http://play.test' },
      passwords: { failedSignInsPerAccount: 3, failedSignInsPerAddress: 10_000, lockMs: 60_000, hashesAtOnce: 2 },
    },
    undefined,
    seams,
  );
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

let counter = 0;
const unique = (label: string) => `${label}${process.pid % 10_000}a${++counter}`;

const TOKENS = 'accessToken refreshToken player { id name } session { id method current }';
const SIGN_UP = `mutation($name: String!, $password: String!, $email: String) { signUp(input: { name: $name, password: $password, email: $email }) { ${TOKENS} } }`;
const SIGN_IN = `mutation($login: String!, $password: String!) { signIn(input: { login: $login, password: $password }) { ${TOKENS} } }`;
const ACCOUNT = '{ myAccount { player { name } email emailVerified hasPassword passkeyCount mailEnabled } }';
const SET_PASSWORD = `mutation($n: String!, $c: String) { setPassword(input: { newPassword: $n, currentPassword: $c }) { hasPassword } }`;
const SET_EMAIL = 'mutation($e: String!) { setEmail(input: { email: $e }) { email emailVerified } }';
const VERIFY = 'mutation($t: String!) { verifyEmail(input: { token: $t }) { email emailVerified player { name } } }';
const REQUEST_RESET = 'mutation($l: String!) { requestPasswordReset(input: { login: $l }) }';
const RESET = `mutation($t: String!, $n: String!) { resetPassword(input: { token: $t, newPassword: $n }) { ${TOKENS} } }`;

async function signUp(name: string, password: string, email?: string) {
  const result = await t.gql(SIGN_UP, { name, password, email });
  if (!result.data?.signUp) throw new Error(`signUp failed: ${JSON.stringify(result.errors)}`);
  return result.data.signUp as { accessToken: string; refreshToken: string; player: { id: string; name: string } };
}

/** The next mail to `to`, waiting for it to arrive; its link's token. */
async function mailTo(to: string, path: string): Promise<{ mail: ReceivedMail; token: string }> {
  await t.app.get(Mailer).idle();
  const deadline = Date.now() + 5_000;
  for (;;) {
    const index = inbox.findIndex((m) => m.to.toLowerCase() === to.toLowerCase());
    if (index >= 0) {
      const [mail] = inbox.splice(index, 1);
      const match = new RegExp(`http://play\\.test/#/${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
      if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
      expect(mail.html).toContain(`http://play.test/#/${path}?token=${match[1]}`);
      return { mail, token: match[1] };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function verifiedAccount(label: string, password = 'correct horse battery') {
  const name = unique(label);
  const email = `${name}@example.com`;
  const signedUp = await signUp(name, password, email);
  const { token } = await mailTo(email, 'verify-email');
  const verified = await t.gql(VERIFY, { t: token });
  expect(verified.data?.verifyEmail).toEqual({ email, emailVerified: true, player: { name } });
  return { name, email, password, signedUp };
}

const code = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

describe('accounts: passwords', () => {
  it('signs up with a password, then signs in by name in any case; the account shows it', async () => {
    const name = unique('Pw');
    const signedUp = await signUp(name, 'a long enough password');
    expect(signedUp.accessToken).toMatch(/^mzk_/);
    const account = await t.gql(ACCOUNT, {}, signedUp.accessToken);
    expect(account.data?.myAccount).toEqual({
      player: { name },
      email: null,
      emailVerified: false,
      hasPassword: true,
      passkeyCount: 0,
      mailEnabled: true,
    });
    const signedIn = await t.gql(SIGN_IN, { login: name.toUpperCase(), password: 'a long enough password' });
    expect(signedIn.data?.signIn.player).toEqual(signedUp.player);
    expect(signedIn.data?.signIn.session).toMatchObject({ method: 'password', current: true });
    expect((await t.gql('{ me { name } }', {}, signedIn.data?.signIn.accessToken)).data?.me.name).toBe(name);
    // The hash is a PHC string with its cost, never the password.
    const stored = await t.app.get(PrismaService).playerAccount.findUniqueOrThrow({ where: { playerId: signedUp.player.id } });
    expect(stored.passwordHash).toMatch(/^\$scrypt\$ln=11,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });

  it('answers a wrong password and an unknown name alike (UNAUTHENTICATED), and refuses short passwords naming the field', async () => {
    const name = unique('Wrong');
    await signUp(name, 'the right password');
    const wrong = await t.gql(SIGN_IN, { login: name, password: 'not the password' });
    const unknown = await t.gql(SIGN_IN, { login: unique('Nobody'), password: 'not the password' });
    expect(code(wrong)).toBe('UNAUTHENTICATED');
    expect(code(unknown)).toBe('UNAUTHENTICATED');
    expect(wrong.errors?.[0].message).toBe('Wrong name or password');
    expect(unknown.errors?.[0].message).toBe(wrong.errors?.[0].message);
    const short = await t.gql(SIGN_UP, { name: unique('Short'), password: 'seven77' });
    expect(code(short)).toBe('BAD_INPUT');
    expect(short.errors?.[0].message).toMatch(/password must be 8 to 256/);
    const long = await t.rest('POST', '/api/v1/accounts', { name: unique('Long'), password: 'x'.repeat(257) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toMatch(/password must be 8 to 256/);
    const taken = await t.gql(SIGN_UP, { name: name.toLowerCase(), password: 'another password' });
    expect(code(taken)).toBe('CONFLICT');
  });

  it('locks an account after the failed sign-ins: even the right password is refused until the window ends; a reset gets in', async () => {
    const { name, email, password } = await verifiedAccount('Lock');
    for (let i = 0; i < 3; i++) expect(code(await t.gql(SIGN_IN, { login: name, password: `wrong guess ${i}` }))).toBe('UNAUTHENTICATED');
    const locked = await t.gql(SIGN_IN, { login: name, password });
    expect(code(locked)).toBe('RATE_LIMITED');
    expect(locked.errors?.[0].message).toMatch(/even the right one/);
    expect(locked.errors?.[0].extensions?.retryAfter).toBeGreaterThan(0);
    // By email it is the same account, so the same lock.
    expect(code(await t.gql(SIGN_IN, { login: email, password }))).toBe('RATE_LIMITED');
    // Failures while locked do not extend the lock (nothing is counted; no hash is worked).
    const rest = await t.rest('POST', '/api/v1/sessions', { login: name, password: 'more guessing' });
    expect(rest.status).toBe(429);
    // The owner gets in by a reset, which also clears the count.
    expect((await t.gql(REQUEST_RESET, { l: name })).data?.requestPasswordReset).toBe(true);
    const { token } = await mailTo(email, 'reset-password');
    expect((await t.gql(RESET, { t: token, n: 'a brand new password' })).data?.resetPassword.player.name).toBe(name);
    expect((await t.gql(SIGN_IN, { login: name, password: 'a brand new password' })).data?.signIn.player.name).toBe(name);
  });

  it('locks an unknown name like a real one, so a lock tells nothing of who exists', async () => {
    const nobody = unique('Ghost');
    for (let i = 0; i < 3; i++) expect(code(await t.gql(SIGN_IN, { login: nobody, password: `guess number ${i}` }))).toBe('UNAUTHENTICATED');
    expect(code(await t.gql(SIGN_IN, { login: nobody, password: 'guess number 4' }))).toBe('RATE_LIMITED');
  });

  it('adds a password to a token-only account (no current one needed), then signs in with it', async () => {
    const name = unique('Tok');
    const { token } = await t.register(name);
    expect((await t.gql(ACCOUNT, {}, token)).data?.myAccount.hasPassword).toBe(false);
    expect(code(await t.gql(SIGN_IN, { login: name, password: 'no password yet' }))).toBe('UNAUTHENTICATED');
    const set = await t.rest('PUT', '/api/v1/me/password', { newPassword: 'my first password' }, token);
    expect(set.status).toBe(200);
    expect(set.body.hasPassword).toBe(true);
    const signedIn = await t.rest('POST', '/api/v1/sessions', { login: name, password: 'my first password' });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.player.name).toBe(name);
    // The personal token still works: adding a password ends nothing.
    expect((await t.gql('{ me { name } }', {}, token)).data?.me.name).toBe(name);
  });

  it('changes a password only given the current one, and ends the other sessions but not the caller’s', async () => {
    const name = unique('Chg');
    const first = await signUp(name, 'the first password');
    const other = (await t.gql(SIGN_IN, { login: name, password: 'the first password' })).data!.signIn;
    const missing = await t.gql(SET_PASSWORD, { n: 'the second password' }, first.accessToken);
    expect(code(missing)).toBe('BAD_INPUT');
    expect(missing.errors?.[0].extensions?.field).toBe('currentPassword');
    const wrong = await t.gql(SET_PASSWORD, { n: 'the second password', c: 'not it at all' }, first.accessToken);
    expect(wrong.errors?.[0].extensions?.field).toBe('currentPassword');
    const changed = await t.gql(SET_PASSWORD, { n: 'the second password', c: 'the first password' }, first.accessToken);
    expect(changed.data?.setPassword.hasPassword).toBe(true);
    expect(code(await t.gql('{ me { name } }', {}, other.accessToken))).toBe('UNAUTHENTICATED');
    expect(code(await t.gql('mutation($t: String!) { refreshSession(input: { refreshToken: $t }) { accessToken } }', { t: other.refreshToken }))).toBe(
      'UNAUTHENTICATED',
    );
    expect((await t.gql('{ me { name } }', {}, first.accessToken)).data?.me.name).toBe(name);
    expect(code(await t.gql(SIGN_IN, { login: name, password: 'the first password' }))).toBe('UNAUTHENTICATED');
    expect((await t.gql(SIGN_IN, { login: name, password: 'the second password' })).data?.signIn.player.name).toBe(name);
  });

  it('stores a password again at today’s cost when one of an older cost signs in', async () => {
    const name = unique('Old');
    const signedUp = await signUp(name, 'an old password');
    const prisma = t.app.get(PrismaService);
    const old = await hashPassword('an old password', { ln: 10, r: 8, p: 1 });
    await prisma.playerAccount.update({ where: { playerId: signedUp.player.id }, data: { passwordHash: old } });
    expect((await t.gql(SIGN_IN, { login: name, password: 'an old password' })).data?.signIn.player.name).toBe(name);
    const stored = await prisma.playerAccount.findUniqueOrThrow({ where: { playerId: signedUp.player.id } });
    expect(stored.passwordHash).toMatch(/^\$scrypt\$ln=11,r=8,p=1\$/);
    expect((await t.gql(SIGN_IN, { login: name, password: 'an old password' })).data?.signIn.player.name).toBe(name);
  });
});

describe('accounts: email', () => {
  it('verifies an email through the link mailed (text and HTML), then signs in by it; the token works once', async () => {
    const name = unique('Mail');
    const email = `${name}@Example.com`;
    const signedUp = await signUp(name, 'password by mail', email);
    expect((await t.gql(ACCOUNT, {}, signedUp.accessToken)).data?.myAccount).toMatchObject({ email, emailVerified: false });
    // Not verified yet: the email does not sign in.
    expect(code(await t.gql(SIGN_IN, { login: email, password: 'password by mail' }))).toBe('UNAUTHENTICATED');
    const { mail, token } = await mailTo(email, 'verify-email');
    expect(mail.subject).toMatch(/Confirm your email/);
    const verified = await t.rest('POST', '/api/v1/email-verifications', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.emailVerified).toBe(true);
    const again = await t.gql(VERIFY, { t: token });
    expect(code(again)).toBe('BAD_INPUT');
    expect(again.errors?.[0].extensions?.field).toBe('token');
    const byEmail = await t.gql(SIGN_IN, { login: email.toLowerCase(), password: 'password by mail' });
    expect(byEmail.data?.signIn.player.name).toBe(name);
  });

  it('keeps a verified email to one account; setEmail unverifies the old one', async () => {
    const { email, signedUp } = await verifiedAccount('Uniq');
    const other = await signUp(unique('Uniq'), 'someone else here');
    expect((await t.gql(SET_EMAIL, { e: email.toUpperCase() }, other.accessToken)).data?.setEmail).toEqual({
      email: email.toUpperCase(),
      emailVerified: false,
    });
    const { token } = await mailTo(email.toUpperCase(), 'verify-email');
    expect(code(await t.gql(VERIFY, { t: token }))).toBe('CONFLICT');
    // The first account moves to another address: it is unverified until its link is followed.
    const moved = await t.rest('PUT', '/api/v1/me/email', { email: `new-${email}` }, signedUp.accessToken);
    expect(moved.body).toMatchObject({ email: `new-${email}`, emailVerified: false });
    await mailTo(`new-${email}`, 'verify-email');
    const bad = await t.rest('PUT', '/api/v1/me/email', { email: 'not an address' }, signedUp.accessToken);
    expect(bad.status).toBe(400);
  });

  it('resets a forgotten password end to end: every session ends, a new one begins, the link works once', async () => {
    const { name, email, signedUp } = await verifiedAccount('Reset');
    expect((await t.rest('POST', '/api/v1/password-resets', { login: email })).body).toEqual({ requested: true });
    const { mail, token } = await mailTo(email, 'reset-password');
    expect(mail.subject).toMatch(/Reset your Mizerka password/);
    const reset = await t.rest('POST', '/api/v1/password-resets/complete', { token, newPassword: 'reset to this one' });
    expect(reset.status).toBe(200);
    expect(reset.body.session.current).toBe(true);
    expect(code(await t.gql('{ me { name } }', {}, signedUp.accessToken))).toBe('UNAUTHENTICATED');
    expect((await t.gql('{ me { name } }', {}, reset.body.accessToken)).data?.me.name).toBe(name);
    const twice = await t.gql(RESET, { t: token, n: 'and again this one' });
    expect(code(twice)).toBe('BAD_INPUT');
    expect(twice.errors?.[0].extensions?.field).toBe('token');
    expect((await t.gql(SIGN_IN, { login: name, password: 'reset to this one' })).data?.signIn.player.name).toBe(name);
  });

  it('refuses an expired link; answers true for an unknown login and mails nothing', async () => {
    const { name, email } = await verifiedAccount('Exp');
    await t.gql(REQUEST_RESET, { l: name });
    const { token } = await mailTo(email, 'reset-password');
    await t.app.get(PrismaService).accountToken.updateMany({ where: { purpose: 'reset_password', usedAt: null, player: { name } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(code(await t.gql(RESET, { t: token, n: 'too late for it' }))).toBe('BAD_INPUT');
    const before = inbox.length;
    expect((await t.gql(REQUEST_RESET, { l: unique('Nobody') })).data?.requestPasswordReset).toBe(true);
    expect((await t.gql(REQUEST_RESET, { l: `${unique('nobody')}@example.com` })).data?.requestPasswordReset).toBe(true);
    await t.app.get(Mailer).idle();
    expect(inbox.length).toBe(before);
  });
});

describe('accounts: locks end', () => {
  it('unlocks an account when its window ends (failures while locked do not extend it), and limits an address whatever names it tries', async () => {
    const quick = await startTestApp({ passwords: { failedSignInsPerAccount: 2, failedSignInsPerAddress: 4, lockMs: 2_000, hashesAtOnce: 2 } }, undefined, seams);
    try {
      const name = unique('Quick');
      await quick.gql(SIGN_UP, { name, password: 'the quick password' });
      for (let i = 0; i < 2; i++) expect(code(await quick.gql(SIGN_IN, { login: name, password: `wrong ${i} guess` }))).toBe('UNAUTHENTICATED');
      for (let i = 0; i < 3; i++) {
        const locked = await quick.gql(SIGN_IN, { login: name, password: 'the quick password' });
        expect(locked.errors?.[0].message).toMatch(/even the right one/);
      }
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect((await quick.gql(SIGN_IN, { login: name, password: 'the quick password' })).data?.signIn.player.name).toBe(name);
      // The address: four failures, on as many names, and the fifth sign-in is refused whatever it names.
      for (let i = 0; i < 4; i++) expect(code(await quick.gql(SIGN_IN, { login: unique('Spray'), password: 'spraying passwords' }))).toBe('UNAUTHENTICATED');
      const refused = await quick.rest('POST', '/api/v1/sessions', { login: name, password: 'the quick password' });
      expect(refused.status).toBe(429);
      expect(JSON.stringify(refused.body)).toMatch(/from your address/);
    } finally {
      await quick.close();
    }
  });
});

describe('accounts without SMTP_URL', () => {
  it('says mail is off, refuses setEmail and requestPasswordReset clearly, and signs in as ever', async () => {
    const plain = await startTestApp({}, undefined, seams);
    try {
      const result = await plain.gql(SIGN_UP, { name: unique('NoMail'), password: 'no mail for me' });
      const tokens = result.data!.signUp;
      expect((await plain.gql(ACCOUNT, {}, tokens.accessToken)).data?.myAccount.mailEnabled).toBe(false);
      const setEmail = await plain.gql(SET_EMAIL, { e: 'a@example.com' }, tokens.accessToken);
      expect(code(setEmail)).toBe('BAD_INPUT');
      expect(setEmail.errors?.[0].message).toBe('This server sends no email (SMTP_URL is unset)');
      const reset = await plain.rest('POST', '/api/v1/password-resets', { login: tokens.player.name });
      expect(reset.status).toBe(400);
      expect(JSON.stringify(reset.body)).toMatch(/SMTP_URL is unset/);
      const withEmail = await plain.gql(SIGN_UP, { name: unique('NoMail'), password: 'no mail for me', email: 'b@example.com' });
      expect(withEmail.errors?.[0].extensions?.field).toBe('email');
      expect((await plain.gql(SIGN_IN, { login: tokens.player.name, password: 'no mail for me' })).data?.signIn.player.name).toBe(tokens.player.name);
    } finally {
      await plain.close();
    }
  });
});

describe('accounts: logs', () => {
  it('never logs a password, a token or a link, whatever the flow', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = {
      ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug', RATE_LIMIT_PER_MINUTE: '1000000', REGISTRATIONS_PER_IP_PER_HOUR: '1000000' }),
      mail: { smtpUrl, from: 'Mizerka <mizerka@localhost>', publicUrl: 'http://play.test' },
    };
    const app = await createApp(config, await createTestDatabase(), createPino(config, sink), seams);
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: any; errors?: { message: string }[] };
    };
    try {
      const name = unique('Log');
      const email = `${name}@example.com`;
      const secrets: string[] = ['first secret password', 'second secret password', 'wrong secret guess'];
      const up = (await gql(SIGN_UP, { name, password: secrets[0], email })).data.signUp;
      secrets.push(up.accessToken, up.refreshToken);
      await app.get(Mailer).idle();
      const verify = inbox.splice(inbox.findIndex((m) => m.to.toLowerCase() === email.toLowerCase()), 1)[0];
      const verifyToken = /token=([A-Za-z0-9_-]+)/.exec(verify.text)![1];
      secrets.push(verifyToken);
      await gql(VERIFY, { t: verifyToken });
      await gql(SIGN_IN, { login: name, password: secrets[2] });
      await gql(REQUEST_RESET, { l: email });
      await app.get(Mailer).idle();
      const reset = inbox.splice(inbox.findIndex((m) => m.to.toLowerCase() === email.toLowerCase()), 1)[0];
      const resetToken = /token=([A-Za-z0-9_-]+)/.exec(reset.text)![1];
      secrets.push(resetToken);
      const after = (await gql(RESET, { t: resetToken, n: secrets[1] })).data.resetPassword;
      secrets.push(after.accessToken, after.refreshToken);
      await gql(SET_PASSWORD, { n: 'third secret password', c: secrets[1] }, after.accessToken);
      secrets.push('third secret password');
      const logged = lines.join('');
      // Something was logged (the requests, the mails sent), none of it secret.
      expect(logged).toContain('sent a password-reset mail');
      expect(logged).toContain('/graphql');
      for (const secret of secrets) expect(logged).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
