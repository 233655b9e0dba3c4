import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
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

@Resolver(() => Passkey)
export class PasskeysResolver {
  constructor(private readonly passkeys: PasskeysService) {}

  @Public()
  @Mutation(() => PasskeyChallenge, { description: 'Begin a sign-up with a passkey: the name is checked now; finishPasskeySignUp makes the player' })
  startPasskeySignUp(
    @Args('input') input: StartPasskeySignUpInput,
    @RequestOrigin() origin: string | null,
    @ClientAddress() address: string,
  ): Promise<PasskeyChallenge> {
    return this.passkeys.startSignUp(input.name, origin, address);
  }

  @Public()
  @Mutation(() => SessionTokens, { description: "The new player, signed in, with the browser's new passkey" })
  finishPasskeySignUp(
    @Args('input') input: FinishPasskeyInput,
    @RequestOrigin() origin: string | null,
    @ClientAddress() address: string,
    @UserAgent() userAgent: string | null,
  ): Promise<SessionTokens> {
    return this.passkeys.finishSignUp(input.challengeId, input.response, origin, address, userAgent);
  }

  @Public()
  @Mutation(() => PasskeyChallenge, { description: 'Begin a sign-in with a passkey; no name: the browser offers the passkeys it holds for this site' })
  startPasskeySignIn(@RequestOrigin() origin: string | null, @ClientAddress() address: string): Promise<PasskeyChallenge> {
    return this.passkeys.startSignIn(origin, address);
  }

  @Public()
  @Mutation(() => SessionTokens, { description: "A session for the passkey's player" })
  finishPasskeySignIn(
    @Args('input') input: FinishPasskeyInput,
    @RequestOrigin() origin: string | null,
    @UserAgent() userAgent: string | null,
  ): Promise<SessionTokens> {
    return this.passkeys.finishSignIn(input.challengeId, input.response, origin, userAgent);
  }

  @Mutation(() => PasskeyChallenge, { description: "Begin adding a passkey to the caller's account" })
  @RequireScope('admin')
  startPasskeyRegistration(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @RequestOrigin() origin: string | null,
    @ClientAddress() address: string,
  ): Promise<PasskeyChallenge> {
    return this.passkeys.startRegistration(caller, origin, address);
  }

  @Mutation(() => Passkey, { description: "The passkey added to the caller's account" })
  @RequireScope('admin')
  finishPasskeyRegistration(
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Args('input') input: FinishPasskeyRegistrationInput,
    @RequestOrigin() origin: string | null,
  ): Promise<Passkey> {
    return this.passkeys.finishRegistration(caller, input.challengeId, input.response, input.label, origin);
  }

  @Query(() => [Passkey], { description: "The caller's passkeys, oldest first" })
  @RequireScope('admin')
  myPasskeys(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<Passkey[]> {
    return this.passkeys.list(caller.id);
  }

  @Mutation(() => Passkey, { description: 'Remove one of the caller’s passkeys: it signs in no more' })
  @RequireScope('admin')
  removePasskey(@CurrentPlayer() caller: AuthenticatedPlayer, @Args('id', { type: () => ID }, ParseUuidPipe) id: string): Promise<Passkey> {
    return this.passkeys.remove(caller.id, id);
  }
}
