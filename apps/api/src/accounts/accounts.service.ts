import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import type { TokenScope } from '../auth/scopes.js';
import { hashToken } from '../auth/tokens.js';
import { badInput, conflict, DomainError, notFound, unauthenticated } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { SERVER_BOT_NAME } from '../players/players.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RATE_LIMIT_STORE, RateLimiter } from '../rate-limit/rate-limiter.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { SessionTokens } from '../sessions/models/session.model.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { accountByLoginSql, otherSessionsSql, useAccountTokenSql } from './accounts.sql.js';
import { HashGate } from './hash-gate.js';
import { Mailer } from './mailer.js';
import type { Account } from './models/account.model.js';
import { dummyHash, hashPassword, needsRehash, SCRYPT_COST, type ScryptCost, verifyPassword } from './password-hash.js';

/** The scrypt cost of new hashes; tests inject a cheap one (the real one takes a second on a busy CI machine). */
export const PASSWORD_COST = Symbol('PASSWORD_COST');

const PLAYER = { id: true, name: true, kind: true, botLevel: true, createdAt: true } as const;
/** A person signed in with a password may do everything, managing the account included. */
const SESSION_SCOPES: TokenScope[] = ['read', 'play', 'admin'];
const VERIFY_MS = 24 * 3_600_000;
const RESET_MS = 3_600_000;
/** Mails a player may be sent per hour (links asked for): past them, none (so nobody's inbox is flooded). */
const MAILS_PER_PLAYER_PER_HOUR = 5;
const HOUR_MS = 3_600_000;
const WRONG = 'Wrong name or password';
const NO_MAIL = 'This server sends no email (SMTP_URL is unset)';

interface Client {
  address: string;
  userAgent?: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Accounts people keep: a password (scrypt, see password-hash.ts) and an email, verified through a
 * mailed link, that signs in and resets a forgotten password. Failed sign-ins are counted per
 * account and per address in the rate-limit store (memory, or Redis shared by every instance):
 * past FAILED_SIGN_INS_PER_ACCOUNT an account refuses every password, the right one too, until
 * its SIGN_IN_LOCK_SECONDS window ends. The trade-off: anyone may lock an account's passwords for
 * a window, again and again (from many addresses); they never lock its owner out of what does not
 * take a password there: sessions already signed in, passkeys, and a reset by mail (which also
 * clears the count). Failures while locked are not counted, so a lock never outlasts its window.
 */
@Injectable()
export class AccountsService {
  private readonly log = new Logger('Accounts');
  private readonly limits: AppConfig['passwords'];
  private readonly publicUrl: string;
  private readonly gate: HashGate;
  private readonly cost: ScryptCost;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sessions: SessionsService,
    private readonly limiter: RateLimiter,
    private readonly mailer: Mailer,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(PASSWORD_COST) cost: ScryptCost | null = null,
  ) {
    this.limits = config.get('passwords', { infer: true });
    this.gate = new HashGate(this.limits.hashesAtOnce);
    this.cost = cost ?? SCRYPT_COST;
    // Not from the request's Host header: a forged one would mail a reset link to the attacker's site.
    const base = config.get('mail', { infer: true }).publicUrl ?? `http://localhost:${config.get('port', { infer: true })}`;
    this.publicUrl = base.replace(/\/+$/, '');
  }

  /** The caller's account as `Account` shows it; the one place its fields are made. */
  async account(playerId: string): Promise<Account> {
    const player = await this.prisma.player.findUnique({
      where: { id: playerId },
      select: { ...PLAYER, account: { select: { passwordHash: true, email: true, emailVerifiedAt: true } }, _count: { select: { passkeys: true } } },
    });
    if (!player) throw notFound('Player');
    const { account, _count, ...rest } = player;
    return {
      player: rest,
      email: account?.email ?? null,
      emailVerified: account?.emailVerifiedAt != null,
      hasPassword: account?.passwordHash != null,
      passkeyCount: _count.passkeys,
      mailEnabled: this.mailer.enabled,
    };
  }

  /** A person's account with a password (and an email to verify), signed in at once. */
  async signUp(input: { name: string; password: string; email?: string | null }, client: Client): Promise<SessionTokens> {
    const { name, password } = input;
    const email = input.email ?? null;
    if (SERVER_BOT_NAME.test(name)) throw badInput(`The name "${name}" is kept for the server's bots`, { field: 'name' });
    if (email && !this.mailer.enabled) throw badInput(NO_MAIL, { field: 'email' });
    const giveBack = await this.limiter.takeRegistration(client.address);
    const passwordHash = await this.hash(client.address, password);
    const link = email ? this.newLink() : null;
    try {
      const tokens = await this.prisma.$transaction(async (tx) => {
        const player = await tx.player.create({ data: { name, nameKey: name.toLowerCase(), kind: 'human' }, select: { id: true } });
        await tx.playerAccount.create({ data: { playerId: player.id, passwordHash, email } });
        if (email && link) {
          await tx.accountToken.create({
            data: { playerId: player.id, purpose: 'verify_email', tokenHash: link.hash, email, expiresAt: new Date(Date.now() + VERIFY_MS) },
          });
        }
        return this.sessions.start({ playerId: player.id, method: 'password', scopes: SESSION_SCOPES, userAgent: client.userAgent }, tx);
      });
      if (email && link) this.mailVerification(name, email, link.token);
      return tokens;
    } catch (error) {
      await giveBack();
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw conflict(`The name "${name}" is taken`);
      throw error;
    }
  }

  /**
   * Signs in with a name (any case) or a verified email and the password. A login that names no
   * account is checked against a dummy hash: the same answer in the same time as a wrong password.
   */
  async signIn(login: string, password: string, client: Client): Promise<SessionTokens> {
    const addressKey = `signin-fail:ip:${client.address}`;
    await this.refuseIfOver(addressKey, this.limits.failedSignInsPerAddress, (s) =>
      `Too many failed sign-ins from your address (FAILED_SIGN_INS_PER_IP); try again in ${s} s`,
    );
    const [found] = await queryRows(this.prisma, accountByLoginSql(login));
    // An unknown login is counted and locked like an account, so a lock tells nothing of who exists.
    const accountKey = `signin-fail:account:${found ? found.player_id : `login:${login.toLowerCase()}`}`;
    await this.refuseIfOver(accountKey, this.limits.failedSignInsPerAccount, (s) =>
      `Too many failed sign-ins to this account: it refuses passwords, even the right one, for ${s} s (FAILED_SIGN_INS_PER_ACCOUNT). ` +
      'Sessions already signed in still work; a password reset by email gets in at once',
    );
    const stored = found?.password_hash ?? null;
    const matches = await this.gate.run(client.address, async () => verifyPassword(stored ?? (await dummyHash(this.cost)), password));
    const right = stored !== null && matches;
    if (!found || !right) {
      await Promise.all([this.store.hit(addressKey, 1, this.limits.lockMs), this.store.hit(accountKey, 1, this.limits.lockMs)]);
      throw unauthenticated(WRONG);
    }
    if (stored && needsRehash(stored, this.cost)) {
      // Stored at an older cost: stored again at today's, now that we hold the password.
      const passwordHash = await this.hash(client.address, password);
      await this.prisma.playerAccount.updateMany({ where: { playerId: found.player_id, passwordHash: stored }, data: { passwordHash } });
    }
    return this.sessions.start({ playerId: found.player_id, method: 'password', scopes: SESSION_SCOPES, userAgent: client.userAgent });
  }

  /**
   * Sets the caller's password: added to an account without one (a token-only account), or
   * changed, given the current one; a change ends the player's other sessions.
   */
  async setPassword(caller: AuthenticatedPlayer, newPassword: string, currentPassword: string | null | undefined, address: string): Promise<Account> {
    const existing = await this.prisma.playerAccount.findUnique({ where: { playerId: caller.id }, select: { passwordHash: true } });
    const stored = existing?.passwordHash ?? null;
    if (stored !== null) {
      if (!currentPassword) throw badInput('currentPassword is required to change the password', { field: 'currentPassword' });
      // Guessing the current password through a stolen session counts as failed sign-ins to the account.
      const accountKey = `signin-fail:account:${caller.id}`;
      await this.refuseIfOver(accountKey, this.limits.failedSignInsPerAccount, (s) =>
        `Too many wrong passwords for this account; try again in ${s} s (FAILED_SIGN_INS_PER_ACCOUNT)`,
      );
      if (!(await this.gate.run(address, () => verifyPassword(stored, currentPassword)))) {
        await this.store.hit(accountKey, 1, this.limits.lockMs);
        throw badInput('currentPassword is not the password of this account', { field: 'currentPassword' });
      }
    }
    const passwordHash = await this.hash(address, newPassword);
    await this.prisma.playerAccount.upsert({ where: { playerId: caller.id }, create: { playerId: caller.id, passwordHash }, update: { passwordHash } });
    if (stored !== null) await this.endSessions(caller.id, caller.sessionId);
    return this.account(caller.id);
  }

  /** Sets the caller's email, not yet verified (a verified one before is no longer), and mails it a link. */
  async setEmail(caller: AuthenticatedPlayer, email: string): Promise<Account> {
    if (!this.mailer.enabled) throw badInput(NO_MAIL, { field: 'email' });
    await this.takeMail(caller.id, true);
    const link = this.newLink();
    const player = await this.prisma.$transaction(async (tx) => {
      await tx.playerAccount.upsert({
        where: { playerId: caller.id },
        create: { playerId: caller.id, email },
        update: { email, emailVerifiedAt: null, verifiedEmailKey: null },
      });
      // Links sent to an address before stop working.
      await tx.accountToken.updateMany({ where: { playerId: caller.id, purpose: 'verify_email', usedAt: null }, data: { usedAt: new Date() } });
      await tx.accountToken.create({
        data: { playerId: caller.id, purpose: 'verify_email', tokenHash: link.hash, email, expiresAt: new Date(Date.now() + VERIFY_MS) },
      });
      return tx.player.findUniqueOrThrow({ where: { id: caller.id }, select: { name: true } });
    });
    this.mailVerification(player.name, email, link.token);
    return this.account(caller.id);
  }

  /** Verifies the email a link was mailed to (once; within 24 hours; while it is still the account's). */
  async verifyEmail(token: string): Promise<Account> {
    const playerId = await this.prisma.$transaction(async (tx) => {
      const [used] = await queryRows(tx, useAccountTokenSql(hashToken(token), 'verify_email'));
      if (!used?.email) throw badInput('This link is unknown, used or expired; ask for a new one', { field: 'token' });
      const account = await tx.playerAccount.findUnique({ where: { playerId: used.player_id }, select: { email: true } });
      if (account?.email?.toLowerCase() !== used.email.toLowerCase()) {
        throw badInput("The account's email has changed since this link was sent", { field: 'token' });
      }
      try {
        await tx.playerAccount.update({
          where: { playerId: used.player_id },
          data: { emailVerifiedAt: new Date(), verifiedEmailKey: used.email.toLowerCase() },
        });
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw conflict('This email is verified by another account already');
        }
        throw error;
      }
      return used.player_id;
    });
    return this.account(playerId);
  }

  /**
   * Mails a reset link to the verified email of the account `login` names (a name, or the email).
   * Always true, whether or not there is such an account, so that it tells nobody who exists.
   */
  async requestPasswordReset(login: string, address: string): Promise<boolean> {
    if (!this.mailer.enabled) throw badInput(NO_MAIL, { field: 'login' });
    // Every request counts for its address, found or not (as a failed sign-in does).
    const addressKey = `reset:ip:${address}`;
    const { count, resetMs } = await this.store.hit(addressKey, 1, this.limits.lockMs);
    if (count > this.limits.failedSignInsPerAddress) {
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      throw new DomainError('RATE_LIMITED', `Too many password resets asked from your address; try again in ${retryAfter} s`, { retryAfter });
    }
    const [found] = await queryRows(this.prisma, accountByLoginSql(login));
    if (!found?.verified_email || !(await this.takeMail(found.player_id, false))) return true;
    const link = this.newLink();
    await this.prisma.accountToken.create({
      data: { playerId: found.player_id, purpose: 'reset_password', tokenHash: link.hash, expiresAt: new Date(Date.now() + RESET_MS) },
    });
    // After the '#': the token never reaches a server (no request log, no Referer), only the page.
    const url = `${this.publicUrl}/#/reset-password?token=${link.token}`;
    this.mailer.send({
      kind: 'password-reset',
      to: found.verified_email,
      subject: 'Reset your Mizerka password',
      text: `Someone (you, we hope) asked to reset the password of your Mizerka account.\n\nSet a new one here, within an hour:\n${url}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
      html: `<p>Someone (you, we hope) asked to reset the password of your Mizerka account.</p><p><a href="${escapeHtml(url)}">Set a new password</a> (within an hour).</p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
    });
    return true;
  }

  /** Sets a new password with a reset link's token (once, within the hour), ends every session, and signs in. */
  async resetPassword(token: string, newPassword: string, client: Client): Promise<SessionTokens> {
    const passwordHash = await this.hash(client.address, newPassword);
    const { tokens, ended, playerId } = await this.prisma.$transaction(async (tx) => {
      const [used] = await queryRows(tx, useAccountTokenSql(hashToken(token), 'reset_password'));
      if (!used) throw badInput('This link is unknown, used or expired; ask for a new one', { field: 'token' });
      await tx.playerAccount.update({ where: { playerId: used.player_id }, data: { passwordHash } });
      // Other reset links of the player stop working too.
      await tx.accountToken.updateMany({ where: { playerId: used.player_id, purpose: 'reset_password', usedAt: null }, data: { usedAt: new Date() } });
      const ended = await queryRows(tx, otherSessionsSql(used.player_id, null));
      const tokens = await this.sessions.start({ playerId: used.player_id, method: 'password', scopes: SESSION_SCOPES, userAgent: client.userAgent }, tx);
      return { tokens, ended: ended.map((s) => s.id), playerId: used.player_id };
    });
    await this.sessions.end(ended);
    // The owner is back in: the failed sign-ins counted against the account are forgotten.
    const accountKey = `signin-fail:account:${playerId}`;
    const { count } = await this.store.hit(accountKey, 0, this.limits.lockMs);
    if (count > 0) await this.store.hit(accountKey, -count, this.limits.lockMs);
    return tokens;
  }

  private async endSessions(playerId: string, keep: string | null): Promise<void> {
    const others = await queryRows(this.prisma, otherSessionsSql(playerId, keep));
    await this.sessions.end(others.map((s) => s.id));
  }

  /** A hash of `password` at today's cost, in its turn among the hashes under way. */
  private hash(address: string, password: string): Promise<string> {
    return this.gate.run(address, () => hashPassword(password, this.cost));
  }

  /** RATE_LIMITED (with retryAfter) when `key` has reached `limit` in its window; counts nothing. */
  private async refuseIfOver(key: string, limit: number, message: (seconds: number) => string): Promise<void> {
    const { count, resetMs } = await this.store.hit(key, 0, this.limits.lockMs);
    if (count < limit) return;
    const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
    throw new DomainError('RATE_LIMITED', message(retryAfter), { retryAfter });
  }

  /** One mail to the player this hour; past MAILS_PER_PLAYER_PER_HOUR, RATE_LIMITED (`loud`) or false. */
  private async takeMail(playerId: string, loud: boolean): Promise<boolean> {
    const { count, resetMs } = await this.store.hit(`mail:player:${playerId}`, 1, HOUR_MS);
    if (count <= MAILS_PER_PLAYER_PER_HOUR) return true;
    if (!loud) return false;
    const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
    throw new DomainError('RATE_LIMITED', `At most ${MAILS_PER_PLAYER_PER_HOUR} mails an hour are sent to an account; try again in ${retryAfter} s`, {
      retryAfter,
    });
  }

  private newLink(): { token: string; hash: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: hashToken(token) };
  }

  private mailVerification(name: string, email: string, token: string): void {
    const url = `${this.publicUrl}/#/verify-email?token=${token}`;
    this.mailer.send({
      kind: 'email-verification',
      to: email,
      subject: 'Confirm your email for Mizerka',
      text: `Hello ${name},\n\nConfirm that this address is yours, within 24 hours:\n${url}\n\nIf you did not ask for this, ignore this mail.\n`,
      html: `<p>Hello ${escapeHtml(name)},</p><p><a href="${escapeHtml(url)}">Confirm that this address is yours</a> (within 24 hours).</p><p>If you did not ask for this, ignore this mail.</p>`,
    });
    this.log.debug('a verification link was mailed');
  }
}
