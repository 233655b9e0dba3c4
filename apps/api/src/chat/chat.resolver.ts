import { Args, Context, ID, Int, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import type { GraphQLContext } from '../auth/request-context.js';
import { RequireScope } from '../auth/scopes.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import { ChatService, tableOf } from './chat.service.js';
import { ChatMessagesArgs, ChatReportsArgs, HandleChatReportInput, ReportChatInput, SendChatInput } from './dto/chat.args.js';
import { ChatMessage, ChatMessagePage, ChatPeer, ChatReport, ChatReportPage, ChatReportStatus, ChatRoom } from './models/chat.model.js';

@Resolver(() => ChatMessage)
export class ChatResolver {
  constructor(private readonly chat: ChatService) {}

  @Query(() => ChatMessagePage, { description: "A room of a game's or a lobby's table talk, newest first, as the caller may read it" })
  @RequireScope('read')
  chatMessages(@Args() args: ChatMessagesArgs, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessagePage> {
    return this.chat.page(caller, tableOf(args), args.room, args.first, args.after);
  }

  @Mutation(() => ChatMessage, { description: "Say something at a table: the seats in the players' room, signed-in spectators in the spectators'" })
  @RequireScope('play')
  sendChatMessage(@Args('input') input: SendChatInput, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessage> {
    return this.chat.send(caller, tableOf(input), input.room, input.body);
  }

  @Subscription(() => ChatMessage, {
    description:
      "A game's chat room after `after` (0: from the first message), then each message as it is said; muted and blocked " +
      'authors left out. Reconnect with the last seq received to resume.',
    resolve: (message: ChatMessage) => message,
  })
  @RequireScope('read')
  gameChat(
    @Args('gameId', { type: () => ID }, ParseUuidPipe) gameId: string,
    @Args('room', { type: () => ChatRoom, defaultValue: ChatRoom.players }) room: ChatRoom,
    @Args('after', { type: () => Int, defaultValue: 0 }) after: number,
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Context() context: GraphQLContext,
  ): AsyncIterableIterator<ChatMessage> {
    return this.chat.follow(caller, { gameId }, room, Math.max(0, after), context.signal);
  }

  @Subscription(() => ChatMessage, { description: "A lobby's chat room, like gameChat", resolve: (message: ChatMessage) => message })
  @RequireScope('read')
  lobbyChat(
    @Args('lobbyId', { type: () => ID }, ParseUuidPipe) lobbyId: string,
    @Args('room', { type: () => ChatRoom, defaultValue: ChatRoom.players }) room: ChatRoom,
    @Args('after', { type: () => Int, defaultValue: 0 }) after: number,
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Context() context: GraphQLContext,
  ): AsyncIterableIterator<ChatMessage> {
    return this.chat.follow(caller, { lobbyId }, room, Math.max(0, after), context.signal);
  }

  @Query(() => [ChatPeer], { description: 'The players whose messages the caller has hidden from themselves' })
  @RequireScope('read')
  chatMutes(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    return this.chat.mutes(caller);
  }

  @Mutation(() => ChatPeer, { description: "Hide a player's messages from yourself only (idempotent)" })
  @RequireScope('play')
  muteChatPlayer(@Args('playerId', { type: () => ID }, ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer> {
    return this.chat.mute(caller, playerId);
  }

  @Mutation(() => Boolean, { description: 'Show their messages again; false when they were not muted' })
  @RequireScope('play')
  unmuteChatPlayer(@Args('playerId', { type: () => ID }, ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<boolean> {
    return this.chat.unmute(caller, playerId);
  }

  @Query(() => [ChatPeer], { description: 'The players the caller has blocked' })
  @RequireScope('read')
  blockedPlayers(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    return this.chat.blocks(caller);
  }

  @Mutation(() => ChatPeer, {
    description: "Block a player: neither sees the other's table talk, they cannot write at a table you sit at, and neither joins a lobby the other is seated in (idempotent)",
  })
  @RequireScope('play')
  blockPlayer(@Args('playerId', { type: () => ID }, ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer> {
    return this.chat.block(caller, playerId);
  }

  @Mutation(() => Boolean, { description: 'Lift a block; false when there was none' })
  @RequireScope('play')
  unblockPlayer(@Args('playerId', { type: () => ID }, ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<boolean> {
    return this.chat.unblock(caller, playerId);
  }

  @Mutation(() => ChatReport, { description: 'Report a message you can read to the moderators, with the messages around it (once per message)' })
  @RequireScope('play')
  reportChatMessage(@Args('input') input: ReportChatInput, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReport> {
    return this.chat.report(caller, tableOf(input), input.room, input.seq, input.reason);
  }

  @Query(() => ChatReportPage, { description: 'Moderators (CHAT_MODERATORS): reported messages, oldest first' })
  @RequireScope('admin')
  chatReports(@Args() args: ChatReportsArgs, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReportPage> {
    return this.chat.reports(caller, args.status ?? ChatReportStatus.open, args.first, args.after);
  }

  @Mutation(() => ChatReport, { description: 'Moderators: resolve or dismiss an open report' })
  @RequireScope('admin')
  handleChatReport(@Args('input') input: HandleChatReportInput, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReport> {
    return this.chat.handle(caller, input.reportId.toLowerCase(), input.status);
  }
}
