import { InputType } from '@nestjs/graphql';
import { IsString, Length } from 'class-validator';
import { Prop } from '../../common/model-field.js';

@InputType()
export class RefreshSessionInput {
  @Prop({ description: 'The refresh token of the last pair', example: 'mzr_…', api: { minLength: 1, maxLength: 200 } })
  @IsString()
  @Length(1, 200, { message: 'refreshToken must be 1 to 200 characters long' })
  refreshToken!: string;
}
