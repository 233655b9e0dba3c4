import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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

@ApiTags('accounts')
@Controller()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Post('accounts')
  @ApiCreatedResponse({ type: SessionTokens, description: 'The new account, signed in' })
  signUp(@Body() input: SignUpInput, @ClientAddress() address: string, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.accounts.signUp(input, { address, userAgent });
  }

  @Public()
  @Post('sessions')
  @ApiCreatedResponse({ type: SessionTokens, description: 'A new session for the name or verified email and password' })
  signIn(@Body() input: SignInInput, @ClientAddress() address: string, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.accounts.signIn(input.login, input.password, { address, userAgent });
  }

  @ApiBearerAuth()
  @Get('me/account')
  @ApiOkResponse({ type: Account })
  @RequireScope('read')
  account(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Account> {
    return this.accounts.account(caller.id);
  }

  @ApiBearerAuth()
  @Put('me/password')
  @ApiOkResponse({ type: Account, description: 'The account; a changed password has ended the other sessions' })
  @RequireScope('admin')
  setPassword(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: SetPasswordInput, @ClientAddress() address: string): Promise<Account> {
    return this.accounts.setPassword(caller, input.newPassword, input.currentPassword, address);
  }

  @ApiBearerAuth()
  @Put('me/email')
  @ApiOkResponse({ type: Account, description: 'The account, its email unverified until the link mailed to it is followed' })
  @RequireScope('admin')
  setEmail(@CurrentPlayer() caller: AuthenticatedPlayer, @Body() input: SetEmailInput): Promise<Account> {
    return this.accounts.setEmail(caller, input.email);
  }

  @Public()
  @Post('email-verifications')
  @HttpCode(200)
  @ApiOkResponse({ type: Account, description: 'The account whose email the link verified' })
  verifyEmail(@Body() input: AccountTokenInput): Promise<Account> {
    return this.accounts.verifyEmail(input.token);
  }

  @Public()
  @Post('password-resets')
  @HttpCode(200)
  @ApiOkResponse({ type: Boolean, description: 'Always true: a link is mailed if the login names an account with a verified email' })
  requestPasswordReset(@Body() input: RequestPasswordResetInput, @ClientAddress() address: string): Promise<boolean> {
    return this.accounts.requestPasswordReset(input.login, address);
  }

  @Public()
  @Post('password-resets/complete')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionTokens, description: 'A new session; every other session of the player has ended' })
  resetPassword(@Body() input: ResetPasswordInput, @ClientAddress() address: string, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.accounts.resetPassword(input.token, input.newPassword, { address, userAgent });
  }
}
