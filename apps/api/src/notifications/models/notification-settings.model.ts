import { Int } from '@nestjs/graphql';
import { Model, Prop, registerEnum } from '../../common/model-field.js';
import type { NoticeKind } from '../notice.js';
import { EMAIL_MODES, NOTICE_KINDS, type EmailMode } from '../preferences.js';

export const NoticeKindEnum = Object.fromEntries(NOTICE_KINDS.map((k) => [k, k])) as { [K in NoticeKind]: K };
registerEnum(NoticeKindEnum, {
  name: 'NoticeKind',
  description: 'What a player who is away may be told of: their turn, a reminder before a time-out, the deadline near, their own time-out, a finished game, an invitation',
});

export const EmailModeEnum = Object.fromEntries(EMAIL_MODES.map((m) => [m, m])) as { [M in EmailMode]: M };
registerEnum(EmailModeEnum, {
  name: 'EmailMode',
  description: 'immediate: a mail per notice; digest: at most one mail per digest interval, listing every game waiting for the player; never: no mail',
});

@Model({ description: "How the caller, when away, is told of their games: per channel, quiet hours, and not while active" })
export class NotificationSettings {
  @Prop(() => [NoticeKindEnum], { enumRef: true, description: 'What Web Push notifications are sent for' })
  pushKinds!: NoticeKind[];

  @Prop(() => [NoticeKindEnum], { enumRef: true, description: 'What email is sent for' })
  emailKinds!: NoticeKind[];

  @Prop(() => EmailModeEnum, { enumRef: true, description: 'How email goes out' })
  emailMode!: EmailMode;

  @Prop(() => Int, { description: 'With the digest: at most one mail this many minutes apart' })
  digestMinutes!: number;

  @Prop(() => String, { nullable: true, description: 'Quiet hours begin (HH:MM, local time): notices are held until they end; null: none', example: '22:00' })
  quietStart!: string | null;

  @Prop(() => String, { nullable: true, description: 'Quiet hours end (HH:MM, local time)', example: '07:30' })
  quietEnd!: string | null;

  @Prop({ description: 'The IANA time zone of the quiet hours', example: 'Europe/Warsaw' })
  timeZone!: string;

  @Prop(() => Int, { description: 'Nothing is sent while the caller holds a live connection or was active this many minutes ago or less' })
  activeMinutes!: number;

  @Prop({ description: 'This server sends email (SMTP is configured)' })
  emailAvailable!: boolean;

  @Prop({ description: "The caller's email is verified: email goes only to a verified address" })
  emailVerified!: boolean;

  @Prop({ description: 'This server sends Web Push notifications' })
  pushAvailable!: boolean;
}

@Model({ description: 'The answer of a one-click unsubscribe' })
export class Unsubscribed {
  @Prop({ description: 'Email is now off for the player the link was made for' })
  unsubscribed!: boolean;
}
