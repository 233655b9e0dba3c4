import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { Public } from '../auth/public.decorator.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { ClientAddress } from '../rate-limit/client-address.decorator.js';
import { SessionTokens } from '../sessions/models/session.model.js';
import { FinishPasskeyInput, FinishPasskeyRegistrationInput, StartPasskeySignUpInput } from './dto/passkey.inputs.js';
import { Passkey, PasskeyChallenge } from './models/passkey.model.js';
import { PasskeysService } from './passkeys.service.js';
import { RequestOrigin, UserAgent } from './request-headers.decorator.js';

@ApiTags('passkeys')
@Controller()
export class PasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Public()
  @Post('passkeys/sign-up/start')
  @HttpCode(200)
  @ApiOkResponse({ type: PasskeyChallenge, description: 'Options for navigator.credentials.create; the name is checked now' })
  startSignUp(@Body() input: StartPasskeySignUpInput, @RequestOrigin() origin: string | null, @ClientAddress() address: string): Promise<PasskeyChallenge> {
    return this.passkeys.startSignUp(input.name, origin, address);
  }

  @Public()
  @Post('passkeys/sign-up/finish')
  @ApiCreatedResponse({ type: SessionTokens, description: "The new player, signed in, with the browser's new passkey" })
  finishSignUp(
    @Body() input: FinishPasskeyInput,
    @RequestOrigin() origin: string | null,
    @ClientAddress() address: string,
    @UserAgent() userAgent: string | null,
  ): Promise<SessionTokens> {
    return this.passkeys.finishSignUp(input.challengeId, input.response, origin, address, userAgent);
  }

  @Public()
  @Post('passkeys/sign-in/start')
  @HttpCode(200)
  @ApiOkResponse({ type: PasskeyChallenge, description: 'Options for navigator.credentials.get; no name needed' })
  startSignIn(@RequestOrigin() origin: string | null, @ClientAddress() address: string): Promise<PasskeyChallenge> {
    return this.passkeys.startSignIn(origin, address);
  }

  @Public()
  @Post('passkeys/sign-in/finish')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionTokens, description: "A session for the passkey's player" })
  finishSignIn(@Body() input: FinishPasskeyInput, @RequestOrigin() origin: string | null, @UserAgent() userAgent: string | null): Promise<SessionTokens> {
    return this.passkeys.finishSignIn(input.challengeId, input.response, origin, userAgent);
  }

  @ApiBearerAuth()
  @Post('me/passkeys/start')
  @HttpCode(200)
  @ApiOkResponse({ type: PasskeyChallenge, description: "Options for adding a passkey to the caller's account" })
  @RequireScope('admin')
  startRegistration(@CurrentPlayer() caller: AuthenticatedPlayer, @RequestOrigin() origin: string | null, @ClientAddress() address: string): Promise<PasskeyChallenge> {
    return this.passkeys.startRegistration(caller, origin, address);
  }

  @ApiBearerAuth()
  @Post('me/passkeys')
  @ApiCreatedResponse({ type: Passkey, description: 'The passkey added' })
  @RequireScope('admin')
  finishRegistration(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Body() input: FinishPasskeyRegistrationInput,
    @RequestOrigin() origin: string | null,
  ): Promise<Passkey> {
    return this.passkeys.finishRegistration(caller, input.challengeId, input.response, input.label, origin);
  }

  @ApiBearerAuth()
  @Get('me/passkeys')
  @ApiOkResponse({ type: [Passkey], description: "The caller's passkeys, oldest first" })
  @RequireScope('admin')
  list(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Passkey[]> {
    return this.passkeys.list(caller.id);
  }

  @ApiBearerAuth()
  @Delete('me/passkeys/:id')
  @HttpCode(200)
  @ApiOkResponse({ type: Passkey, description: 'The passkey removed: it signs in no more' })
  @RequireScope('admin')
  remove(@CurrentPlayer() caller: AuthenticatedPlayer, @Param('id', ParseUuidPipe) id: string): Promise<Passkey> {
    return this.passkeys.remove(caller.id, id);
  }
}
