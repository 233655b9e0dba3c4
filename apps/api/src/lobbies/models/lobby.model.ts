import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';

export enum LobbyVisibility {
  public = 'public',
  unlisted = 'unlisted',
}
registerEnumType(LobbyVisibility, {
  name: 'LobbyVisibility',
  description: 'public: listed for everyone; unlisted: found only through its invite code',
});

export enum LobbyStatus {
  open = 'open',
  started = 'started',
  closed = 'closed',
}
registerEnumType(LobbyStatus, {
  name: 'LobbyStatus',
  description: 'open: taking seats; started: its game is under way (or over); closed: everyone left',
});

@ObjectType({ description: 'A player as a lobby shows them' })
export class LobbyPlayer {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field()
  @ApiProperty({ example: 'ala' })
  name!: string;
}

@ObjectType({ description: 'One seat of a lobby; seats are numbered 0 .. players-1 clockwise' })
export class LobbySeat {
  @Field(() => Int)
  @ApiProperty({ example: 0 })
  seat!: number;

  @Field(() => LobbyPlayer, { nullable: true, description: 'null while the seat is free' })
  @ApiProperty({ type: LobbyPlayer, nullable: true })
  player!: LobbyPlayer | null;
}

@ObjectType({ description: 'Rule options of a lobby, as normalised by the rules (unset = the preset default)' })
export class LobbyRuleOptions {
  @Field(() => String, { nullable: true, description: 'contract family: "reversed" (default) or "same"' })
  @ApiProperty({ enum: ['reversed', 'same'], required: false, nullable: true })
  mizerkaQuotas?: string | null;

  @Field(() => Int, { nullable: true, description: 'bidding family: the total that ends the game (default 300)' })
  @ApiProperty({ type: Number, required: false, nullable: true, example: 300 })
  target?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'bidding family: whether double misère may be bid (default false)' })
  @ApiProperty({ type: Boolean, required: false, nullable: true })
  doubleMisere?: boolean | null;
}

@ObjectType({ description: 'A table waiting for its players; it starts a game once every seat is taken' })
export class Lobby {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field({ description: 'The rules preset: classic, classic-4, short, short-4, bidding or bidding-4' })
  @ApiProperty({ example: 'classic' })
  preset!: string;

  @Field(() => LobbyRuleOptions)
  @ApiProperty({ type: LobbyRuleOptions })
  options!: LobbyRuleOptions;

  @Field(() => Int, { description: 'Number of seats (3 or 4), fixed by the preset' })
  @ApiProperty({ example: 3 })
  players!: number;

  @Field(() => LobbyVisibility)
  @ApiProperty({ enum: LobbyVisibility, enumName: 'LobbyVisibility' })
  visibility!: LobbyVisibility;

  @Field(() => LobbyStatus)
  @ApiProperty({ enum: LobbyStatus, enumName: 'LobbyStatus' })
  status!: LobbyStatus;

  @Field({ description: 'Share it to invite players; the only way into an unlisted lobby' })
  @ApiProperty({ example: 'K7QX4M2P' })
  inviteCode!: string;

  @Field(() => LobbyPlayer)
  @ApiProperty({ type: LobbyPlayer })
  host!: LobbyPlayer;

  @Field(() => [LobbySeat], { description: 'Every seat, in seat order, taken or free' })
  @ApiProperty({ type: [LobbySeat] })
  seats!: LobbySeat[];

  @Field(() => Int)
  @ApiProperty({ example: 2 })
  seatsTaken!: number;

  @Field(() => Int)
  @ApiProperty({ example: 1 })
  seatsFree!: number;

  @Field(() => ID, { nullable: true, description: 'The game this lobby started, once it has' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  gameId!: string | null;

  @Field(() => ID, { nullable: true, description: '"Play again": the finished game whose players this lobby was made for' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  previousGameId!: string | null;

  @Field()
  @ApiProperty()
  createdAt!: Date;
}

@ObjectType({ description: 'A page of open public lobbies, newest first' })
export class LobbyPage {
  @Field(() => [Lobby])
  @ApiProperty({ type: [Lobby] })
  lobbies!: Lobby[];

  @Field(() => Int, { description: 'Open public lobbies matching the filter, on all pages' })
  @ApiProperty({ example: 12 })
  total!: number;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}
