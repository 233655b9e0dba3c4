import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { CurrentPlayer } from '../auth/current-player.decorator.js';
import { EventStreams } from '../auth/event-streams.js';
import { RequireScope } from '../auth/scopes.js';
import { badInput } from '../common/errors.js';
import { ParseUuidPipe } from '../common/parse-uuid.pipe.js';
import type { ChatTable } from './chat-room.js';
import { ChatService } from './chat.service.js';
import { ChatPageQuery, ChatReportsArgs, ChatStreamQuery, HandleChatReportBody, ReportChatBody, SendChatBody } from './dto/chat.args.js';
import { ChatMessage, ChatMessagePage, ChatPeer, ChatReport, ChatReportPage, ChatReportStatus, ChatRoom } from './models/chat.model.js';

const MAX_SEQ = 2_147_483_647;

/** Where a chat stream resumes: Last-Event-ID (a seq) wins over `after`. */
function resumeAfter(lastEventId: string | undefined, after: number | undefined): number {
  const header = lastEventId?.trim();
  if (!header) return after ?? 0;
  if (!/^\d{1,10}$/.test(header) || Number(header) > MAX_SEQ) {
    throw badInput('Last-Event-ID must be the seq of the last message received', { field: 'Last-Event-ID' });
  }
  return Number(header);
}

const STREAM_WORDS =
  'Server-sent events: the room after `after`, then each message as it is said (as the gameChat subscription): ' +
  '`id: <seq>`, `event: message`, `data: <ChatMessage as JSON>`. A `: ready` comment says the stream follows.';

@ApiTags('chat')
@ApiBearerAuth()
@Controller()
export class ChatController {
  constructor(
    private readonly chat: ChatService,
    private readonly streams: EventStreams,
  ) {}

  @Get('games/:id/chat')
  @ApiOkResponse({ type: ChatMessagePage, description: "A room of the game's table talk, newest first" })
  @RequireScope('read')
  gameMessages(@Param('id', ParseUuidPipe) id: string, @Query() query: ChatPageQuery, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessagePage> {
    return this.chat.page(caller, { gameId: id }, query.room ?? ChatRoom.players, query.first, query.after);
  }

  @Post('games/:id/chat')
  @ApiOkResponse({ type: ChatMessage, description: 'The message said' })
  @HttpCode(200)
  @RequireScope('play')
  sendToGame(@Param('id', ParseUuidPipe) id: string, @Body() body: SendChatBody, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessage> {
    return this.chat.send(caller, { gameId: id }, body.room ?? ChatRoom.players, body.body);
  }

  @Get('games/:id/chat/stream')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this seq (wins over `after`)' })
  @ApiOkResponse({ description: STREAM_WORDS })
  @RequireScope('read')
  gameStream(
    @Param('id', ParseUuidPipe) id: string,
    @Query() query: ChatStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Res() res: Response,
  ): Promise<void> {
    return this.serve(res, caller, { gameId: id }, query, lastEventId);
  }

  @Post('games/:id/chat/reports')
  @ApiOkResponse({ type: ChatReport, description: 'The report (the same one when the caller reported this message before)' })
  @HttpCode(200)
  @RequireScope('play')
  reportInGame(@Param('id', ParseUuidPipe) id: string, @Body() body: ReportChatBody, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReport> {
    return this.chat.report(caller, { gameId: id }, body.room ?? ChatRoom.players, body.seq, body.reason);
  }

  @Get('lobbies/:id/chat')
  @ApiOkResponse({ type: ChatMessagePage, description: "A room of the lobby's talk, newest first" })
  @RequireScope('read')
  lobbyMessages(@Param('id', ParseUuidPipe) id: string, @Query() query: ChatPageQuery, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessagePage> {
    return this.chat.page(caller, { lobbyId: id }, query.room ?? ChatRoom.players, query.first, query.after);
  }

  @Post('lobbies/:id/chat')
  @ApiOkResponse({ type: ChatMessage, description: 'The message said' })
  @HttpCode(200)
  @RequireScope('play')
  sendToLobby(@Param('id', ParseUuidPipe) id: string, @Body() body: SendChatBody, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatMessage> {
    return this.chat.send(caller, { lobbyId: id }, body.room ?? ChatRoom.players, body.body);
  }

  @Get('lobbies/:id/chat/stream')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this seq (wins over `after`)' })
  @ApiOkResponse({ description: STREAM_WORDS })
  @RequireScope('read')
  lobbyStream(
    @Param('id', ParseUuidPipe) id: string,
    @Query() query: ChatStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentPlayer() caller: AuthenticatedPlayer,
    @Res() res: Response,
  ): Promise<void> {
    return this.serve(res, caller, { lobbyId: id }, query, lastEventId);
  }

  @Post('lobbies/:id/chat/reports')
  @ApiOkResponse({ type: ChatReport })
  @HttpCode(200)
  @RequireScope('play')
  reportInLobby(@Param('id', ParseUuidPipe) id: string, @Body() body: ReportChatBody, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReport> {
    return this.chat.report(caller, { lobbyId: id }, body.room ?? ChatRoom.players, body.seq, body.reason);
  }

  @Get('chat/mutes')
  @ApiOkResponse({ type: [ChatPeer], description: 'The players whose messages the caller has hidden from themselves' })
  @RequireScope('read')
  mutes(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    return this.chat.mutes(caller);
  }

  @Put('chat/mutes/:playerId')
  @ApiOkResponse({ type: ChatPeer, description: 'Muted (idempotent)' })
  @RequireScope('play')
  mute(@Param('playerId', ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer> {
    return this.chat.mute(caller, playerId);
  }

  @Delete('chat/mutes/:playerId')
  @ApiOkResponse({ description: '`{ "unmuted": true }`, or false when they were not muted' })
  @HttpCode(200)
  @RequireScope('play')
  async unmute(@Param('playerId', ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<{ unmuted: boolean }> {
    return { unmuted: await this.chat.unmute(caller, playerId) };
  }

  @Get('blocks')
  @ApiOkResponse({ type: [ChatPeer], description: 'The players the caller has blocked' })
  @RequireScope('read')
  blocks(@CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer[]> {
    return this.chat.blocks(caller);
  }

  @Put('blocks/:playerId')
  @ApiOkResponse({ type: ChatPeer, description: "Blocked (idempotent): no table talk between you, and no lobby together" })
  @RequireScope('play')
  block(@Param('playerId', ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatPeer> {
    return this.chat.block(caller, playerId);
  }

  @Delete('blocks/:playerId')
  @ApiOkResponse({ description: '`{ "unblocked": true }`, or false when there was no block' })
  @HttpCode(200)
  @RequireScope('play')
  async unblock(@Param('playerId', ParseUuidPipe) playerId: string, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<{ unblocked: boolean }> {
    return { unblocked: await this.chat.unblock(caller, playerId) };
  }

  @Get('chat/reports')
  @ApiOkResponse({ type: ChatReportPage, description: 'Moderators (CHAT_MODERATORS): reported messages, oldest first' })
  @RequireScope('admin')
  reports(@Query() query: ChatReportsArgs, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReportPage> {
    return this.chat.reports(caller, query.status ?? ChatReportStatus.open, query.first, query.after);
  }

  @Post('chat/reports/:id/handle')
  @ApiOkResponse({ type: ChatReport, description: 'Moderators: the report, resolved or dismissed; 409 once handled' })
  @HttpCode(200)
  @RequireScope('admin')
  handle(@Param('id', ParseUuidPipe) id: string, @Body() body: HandleChatReportBody, @CurrentPlayer() caller: AuthenticatedPlayer): Promise<ChatReport> {
    return this.chat.handle(caller, id, body.status);
  }

  private serve(res: Response, caller: AuthenticatedPlayer, table: ChatTable, query: ChatStreamQuery, lastEventId: string | undefined): Promise<void> {
    const after = resumeAfter(lastEventId, query.after);
    return this.streams.serve(
      res,
      caller,
      (signal, started) => this.chat.followStream(caller, table, query.room ?? ChatRoom.players, after, signal, started),
      (message) => ({ id: String(message.seq), event: 'message', data: message }),
    );
  }
}
