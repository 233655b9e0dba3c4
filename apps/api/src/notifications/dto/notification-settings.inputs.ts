import { InputType, Int } from '@nestjs/graphql';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import type { NoticeKind } from '../notice.js';
import { EMAIL_MODES, NOTICE_KINDS, type EmailMode } from '../preferences.js';
import { EmailModeEnum, NoticeKindEnum } from '../models/notification-settings.model.js';

const KINDS_MESSAGE = (field: string) => `${field} may hold only ${NOTICE_KINDS.join(', ')}`;

/** What to change; a field left out stays as it is. */
@InputType()
export class SetNotificationSettingsInput {
  @Prop(() => [NoticeKindEnum], { optional: true, enumRef: true, description: 'What Web Push notifications are sent for (empty: nothing)' })
  @IsOptional()
  @IsArray({ message: 'pushKinds must be a list' })
  @ArrayMaxSize(NOTICE_KINDS.length, { message: `pushKinds holds at most ${NOTICE_KINDS.length} kinds` })
  @IsIn(NOTICE_KINDS, { each: true, message: KINDS_MESSAGE('pushKinds') })
  pushKinds?: NoticeKind[] | null;

  @Prop(() => [NoticeKindEnum], { optional: true, enumRef: true, description: 'What email is sent for (empty: nothing)' })
  @IsOptional()
  @IsArray({ message: 'emailKinds must be a list' })
  @ArrayMaxSize(NOTICE_KINDS.length, { message: `emailKinds holds at most ${NOTICE_KINDS.length} kinds` })
  @IsIn(NOTICE_KINDS, { each: true, message: KINDS_MESSAGE('emailKinds') })
  emailKinds?: NoticeKind[] | null;

  @Prop(() => EmailModeEnum, { optional: true, enumRef: true, description: 'How email goes out' })
  @IsOptional()
  @IsIn(EMAIL_MODES, { message: `emailMode must be one of ${EMAIL_MODES.join(', ')}` })
  emailMode?: EmailMode | null;

  @Prop(() => Int, { optional: true, description: 'Minutes between digests, 15 to 10080 (a week)', api: { minimum: 15, maximum: 10_080 } })
  @IsOptional()
  @IsInt({ message: 'digestMinutes must be a whole number' })
  @Min(15, { message: 'digestMinutes must be 15 to 10080' })
  @Max(10_080, { message: 'digestMinutes must be 15 to 10080' })
  digestMinutes?: number | null;

  @Prop(() => String, { optional: true, nullable: true, description: 'Quiet hours begin, HH:MM; with quietEnd; both null: no quiet hours', api: { maxLength: 5 } })
  @IsOptional()
  @IsString({ message: 'quietStart must be a string' })
  @Length(0, 5, { message: 'quietStart must be HH:MM' })
  quietStart?: string | null;

  @Prop(() => String, { optional: true, nullable: true, description: 'Quiet hours end, HH:MM', api: { maxLength: 5 } })
  @IsOptional()
  @IsString({ message: 'quietEnd must be a string' })
  @Length(0, 5, { message: 'quietEnd must be HH:MM' })
  quietEnd?: string | null;

  @Prop(() => String, { optional: true, description: 'An IANA time zone, such as Europe/Warsaw', api: { maxLength: 64 } })
  @IsOptional()
  @IsString({ message: 'timeZone must be a string' })
  @Length(1, 64, { message: 'timeZone must be 1 to 64 characters long' })
  timeZone?: string | null;

  @Prop(() => Int, { optional: true, description: 'Minutes of inactivity before anything is sent, 0 to 120', api: { minimum: 0, maximum: 120 } })
  @IsOptional()
  @IsInt({ message: 'activeMinutes must be a whole number' })
  @Min(0, { message: 'activeMinutes must be 0 to 120' })
  @Max(120, { message: 'activeMinutes must be 0 to 120' })
  activeMinutes?: number | null;
}
