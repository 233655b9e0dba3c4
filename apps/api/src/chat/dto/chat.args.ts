import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, MaxLength, Min, Max } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { PageArgs } from '../../common/paging.js';
import { CHAT_RAW_MAX } from '../chat-text.js';
import { ChatReportStatus, ChatRoom } from '../models/chat.model.js';

const MAX_SEQ = 2_147_483_647;

/** Which table (exactly one of the two) and which of its rooms: GraphQL arguments. */
@ArgsType()
export class ChatTableArgs {
  @Field(() => ID, { nullable: true, description: 'The game whose table talk (give this or lobbyId)' })
  @IsOptional()
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Or the lobby whose talk' })
  @IsOptional()
  @IsUUID('all', { message: 'lobbyId must be a valid id' })
  lobbyId?: string | null;

  @Field(() => ChatRoom, { defaultValue: ChatRoom.players })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room: ChatRoom = ChatRoom.players;
}

/** A page of a room's messages, newest first: GraphQL arguments. */
@ArgsType()
export class ChatMessagesArgs extends ChatTableArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Page size, 1 to 100' })
  @IsOptional()
  @IsInt({ message: 'first must be a whole number' })
  @Min(1, { message: 'first must be 1 to 100' })
  @Max(100, { message: 'first must be 1 to 100' })
  first: number = 20;

  @Field(() => String, { nullable: true, description: 'The nextCursor of the previous page; omitted: the newest messages' })
  @IsOptional()
  @IsString({ message: 'after must be a cursor string' })
  @Length(1, 200, { message: 'after is not a valid cursor' })
  after?: string | null;
}

/** REST query of GET …/chat: the room and the page. */
export class ChatPageQuery extends PageArgs {
  @Prop(() => ChatRoom, { optional: true, enumRef: true, description: 'Default players', api: { default: ChatRoom.players } })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room?: ChatRoom;
}

/** REST query of GET …/chat/stream. */
export class ChatStreamQuery {
  @Prop(() => ChatRoom, { optional: true, enumRef: true, description: 'Default players', api: { default: ChatRoom.players } })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room?: ChatRoom;

  @Prop(() => Int, { optional: true, description: 'Messages with a greater seq; 0 or omitted: from the first', api: { minimum: 0 } })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'after must be a whole number' })
  @Min(0, { message: 'after must not be negative' })
  @Max(MAX_SEQ, { message: `after must be at most ${MAX_SEQ}` })
  after?: number;
}

@InputType()
export class SendChatInput {
  @Field(() => ID, { nullable: true, description: 'The game whose table (give this or lobbyId)' })
  @IsOptional()
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Or the lobby' })
  @IsOptional()
  @IsUUID('all', { message: 'lobbyId must be a valid id' })
  lobbyId?: string | null;

  @Field(() => ChatRoom, { defaultValue: ChatRoom.players, description: 'The seats write in players, the others in spectators' })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room: ChatRoom = ChatRoom.players;

  @Field(() => String, { description: 'Plain text, one line, at most 500 characters once trimmed' })
  @IsString({ message: 'body must be text' })
  @MaxLength(CHAT_RAW_MAX, { message: 'body must be at most 500 characters long' })
  body!: string;
}

/** REST body of POST …/chat. */
export class SendChatBody {
  @ApiProperty({ required: false, enum: ChatRoom, default: ChatRoom.players, description: 'The seats write in players, the others in spectators' })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room?: ChatRoom;

  @ApiProperty({ example: 'Good luck, all!', description: 'Plain text, one line, at most 500 characters once trimmed', maxLength: CHAT_RAW_MAX })
  @IsString({ message: 'body must be text' })
  @MaxLength(CHAT_RAW_MAX, { message: 'body must be at most 500 characters long' })
  body!: string;
}

@InputType()
export class ReportChatInput {
  @Field(() => ID, { nullable: true, description: 'The game (give this or lobbyId)' })
  @IsOptional()
  @IsUUID('all', { message: 'gameId must be a valid id' })
  gameId?: string | null;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID('all', { message: 'lobbyId must be a valid id' })
  lobbyId?: string | null;

  @Field(() => ChatRoom, { defaultValue: ChatRoom.players })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room: ChatRoom = ChatRoom.players;

  @Field(() => Int, { description: 'The seq of the message reported' })
  @IsInt({ message: 'seq must be a whole number' })
  @Min(1, { message: 'seq must be at least 1' })
  @Max(MAX_SEQ, { message: `seq must be at most ${MAX_SEQ}` })
  seq!: number;

  @Field(() => String, { nullable: true, description: 'What is wrong with it, in a few words (at most 500 characters)' })
  @IsOptional()
  @IsString({ message: 'reason must be text' })
  @MaxLength(CHAT_RAW_MAX, { message: 'reason must be at most 500 characters long' })
  reason?: string | null;
}

/** REST body of POST …/chat/reports. */
export class ReportChatBody {
  @ApiProperty({ required: false, enum: ChatRoom, default: ChatRoom.players })
  @IsOptional()
  @IsEnum(ChatRoom, { message: 'room must be "players" or "spectators"' })
  room?: ChatRoom;

  @ApiProperty({ description: 'The seq of the message reported', minimum: 1 })
  @IsInt({ message: 'seq must be a whole number' })
  @Min(1, { message: 'seq must be at least 1' })
  @Max(MAX_SEQ, { message: `seq must be at most ${MAX_SEQ}` })
  seq!: number;

  @ApiProperty({ required: false, description: 'What is wrong with it, in a few words (at most 500 characters)' })
  @IsOptional()
  @IsString({ message: 'reason must be text' })
  @MaxLength(CHAT_RAW_MAX, { message: 'reason must be at most 500 characters long' })
  reason?: string | null;
}

/** The report queue's filter and page (moderators). */
@ArgsType()
export class ChatReportsArgs extends PageArgs {
  @Prop(() => ChatReportStatus, { optional: true, enumRef: true, description: 'Default open', api: { default: ChatReportStatus.open } })
  @IsOptional()
  @IsIn(Object.values(ChatReportStatus), { message: 'status must be open, resolved or dismissed' })
  status?: ChatReportStatus;
}

@InputType()
export class HandleChatReportInput {
  @Field(() => ID)
  @IsUUID('all', { message: 'reportId must be a valid id' })
  reportId!: string;

  @Field(() => ChatReportStatus, { description: 'resolved or dismissed' })
  @IsIn([ChatReportStatus.resolved, ChatReportStatus.dismissed], { message: 'status must be resolved or dismissed' })
  status!: ChatReportStatus;
}

/** REST body of POST /chat/reports/:id/handle. */
export class HandleChatReportBody {
  @ApiProperty({ enum: [ChatReportStatus.resolved, ChatReportStatus.dismissed] })
  @IsIn([ChatReportStatus.resolved, ChatReportStatus.dismissed], { message: 'status must be resolved or dismissed' })
  status!: ChatReportStatus;
}
