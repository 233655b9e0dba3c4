import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ClientAddress } from '../rate-limit/client-address.decorator.js';
import { SessionTokens } from '../sessions/models/session.model.js';
import { AccountsService } from './accounts.service.js';
import {
  AccountTokenInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  SetEmailInput,
  SetPasswordInput,
  SignInInput,
  SignUpInput,
} from './dto/account.inputs.js';
import { Account } from './models/account.model.js';
import { UserAgent } from './user-agent.decorator.js';

@Resolver(() => Account)
export class AccountsResolver {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Mutation(() => SessionTokens, { description: 'Create a person’s account with a password (and an email to verify), signed in' })
  signUp(@Args('input') input: SignUpInput, @ClientAddress() address: string, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.accounts.signUp(input, { address, userAgent });
  }

  @Public()
  @Mutation(() => SessionTokens, { description: 'Sign in with a name or a verified email and the password: a new session' })
  signIn(@Args('input') input: SignInInput, @ClientAddress() address: string, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.accounts.signIn(input.login, input.password, { address, userAgent });
  }

  @Query(() => Account, { description: "The caller's account: email, password, passkeys" })
  @RequireScope('read')
  myAccount(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Account> {
    return this.accounts.account(caller.id);
  }

  @Mutation(() => Account, { description: 'Add a password, or change it given the current one (which ends the other sessions)' })
  @RequireScope('admin')
  setPassword(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: SetPasswordInput, @ClientAddress() address: string): Promise<Account> {
    return this.accounts.setPassword(caller, input.newPassword, input.currentPassword, address);
  }

  @Mutation(() => Account, { description: 'Set the email (unverified until the link mailed to it is followed)' })
  @RequireScope('admin')
  setEmail(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('input') input: SetEmailInput): Promise<Account> {
    return this.accounts.setEmail(caller, input.email);
  }

  @Public()
  @Mutation(() => Account, { description: 'Verify an email with the token of the link mailed to it' })
  verifyEmail(@Args('input') input: AccountTokenInput): Promise<Account> {
    return this.accounts.verifyEmail(input.token);
  }

  @Public()
  @Mutation(() => Boolean, { description: 'Mail a reset link to the verified email of an account; always true, whether the account exists or not' })
  requestPasswordReset(@Args('input') input: RequestPasswordResetInput, @ClientAddress() address: string): Promise<boolean> {
    return this.accounts.requestPasswordReset(input.login, address);
  }

  @Public()
  @Mutation(() => SessionTokens, { description: 'Set a new password with a reset link’s token: every other session ends; a new one begins' })
  resetPassword(
    @Args('input') input: ResetPasswordInput,
    @ClientAddress() address: string,
    @UserAgent() userAgent: string | null,
  ): Promise<SessionTokens> {
    return this.accounts.resetPassword(input.token, input.newPassword, { address, userAgent });
  }
}
