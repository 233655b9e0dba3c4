import { GraphQLISODateTime, ID, Int } from '@nestjs/graphql';
import { Model, Prop, registerEnum } from '../../common/model-field.js';

export enum ChatRoom {
  players = 'players',
  spectators = 'spectators',
}
registerEnum(ChatRoom, {
  name: 'ChatRoom',
  description:
    "players: the seats write, the spectators read it only if the host allowed it; spectators: signed-in viewers who are not seated write, and the seats read it only once the game is over",
});

export enum ChatReportStatus {
  open = 'open',
  resolved = 'resolved',
  dismissed = 'dismissed',
}
registerEnum(ChatReportStatus, { name: 'ChatReportStatus', description: 'open: waiting for a moderator; resolved: acted on; dismissed: nothing to do' });

@Model({ description: 'Who wrote a message, or whom the caller muted or blocked' })
export class ChatPlayer {
  @Prop(() => ID)
  id!: string;

  @Prop({ example: 'ala' })
  name!: string;
}

@Model({ description: 'A message of table talk: plain text, never markup (show it as text; do not follow its links on your own)' })
export class ChatMessage {
  @Prop(() => Int, { description: "Its number in its room, from 1: resume a stream after the last one received", example: 1 })
  seq!: number;

  @Prop(() => ChatRoom, { enumRef: true })
  room!: ChatRoom;

  @Prop(() => ID, { nullable: true, description: 'The game whose table it was said at (null: a lobby)' })
  gameId!: string | null;

  @Prop(() => ID, { nullable: true, description: 'The lobby it was said in (null: a game)' })
  lobbyId!: string | null;

  @Prop(() => ChatPlayer)
  author!: ChatPlayer;

  @Prop({ description: 'Plain text, trimmed, at most 500 characters, one line', example: 'Good luck, all!' })
  body!: string;

  @Prop()
  createdAt!: Date;
}

@Model({ description: "A page of a room's messages, newest first (muted and blocked authors left out)" })
export class ChatMessagePage {
  @Prop(() => [ChatMessage])
  messages!: ChatMessage[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next (older) page; null on the last page' })
  nextCursor!: string | null;

  @Prop({ description: 'Older messages follow this page' })
  hasMore!: boolean;
}

@Model({ description: 'A player the caller muted or blocked, and since when' })
export class ChatPeer {
  @Prop(() => ChatPlayer)
  player!: ChatPlayer;

  @Prop()
  since!: Date;
}

@Model({ description: 'A reported message, with the messages around it as they were when it was reported' })
export class ChatReport {
  @Prop(() => ID)
  id!: string;

  @Prop(() => ChatReportStatus, { enumRef: true })
  status!: ChatReportStatus;

  @Prop({ description: "The reporter's words (plain text; may be empty)" })
  reason!: string;

  @Prop(() => ChatPlayer)
  reporter!: ChatPlayer;

  @Prop(() => ChatMessage, { description: 'The message reported' })
  message!: ChatMessage;

  @Prop(() => [ChatMessage], { description: 'The few messages before and after it in its room, in order, the reported one among them' })
  context!: ChatMessage[];

  @Prop()
  createdAt!: Date;

  @Prop(() => GraphQLISODateTime, { nullable: true })
  handledAt!: Date | null;

  @Prop(() => ChatPlayer, { nullable: true, description: 'The moderator who resolved or dismissed it' })
  handledBy!: ChatPlayer | null;
}

@Model({ description: 'A page of the report queue, oldest first' })
export class ChatReportPage {
  @Prop(() => [ChatReport])
  reports!: ChatReport[];

  @Prop(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  nextCursor!: string | null;

  @Prop()
  hasMore!: boolean;
}
