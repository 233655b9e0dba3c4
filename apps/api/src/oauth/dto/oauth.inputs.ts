import { InputType } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, MaxLength } from 'class-validator';
import { Prop } from '../../common/model-field.js';
import { MAX_REDIRECT_URI } from '../pkce.js';

@InputType()
export class CreateOAuthAppInput {
  @Prop({ description: 'The app’s name, 1 to 60 characters, shown on the consent page', example: 'Mizerka Stats', api: { minLength: 1, maxLength: 60 } })
  @IsString()
  @Length(1, 60, { message: 'name must be 1 to 60 characters long' })
  name!: string;

  @Prop(() => [String], {
    description: '1 to 10 redirect URIs: https, or http to a loopback address (127.0.0.1, [::1], localhost) for a native app',
    api: { minItems: 1, maxItems: 10 },
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'redirectUris must hold 1 to 10 URIs' })
  @ArrayMaxSize(10, { message: 'redirectUris must hold 1 to 10 URIs' })
  @IsString({ each: true })
  @MaxLength(MAX_REDIRECT_URI, { each: true, message: `each redirect URI must be at most ${MAX_REDIRECT_URI} characters` })
  redirectUris!: string[];
}
