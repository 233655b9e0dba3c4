import { Body, Controller, Get, Headers, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExcludeEndpoint, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/public.decorator.js';
import { OAuthError, OAuthService } from './oauth.service.js';

/** The OAuth 2 endpoints apps call, at /oauth/* (outside /api/v1: the paths apps expect). */
export const OAUTH_ROUTES = ['oauth/authorize', 'oauth/token', 'oauth/revoke'];

const FORM = {
  schema: {
    type: 'object',
    additionalProperties: { type: 'string' },
  },
} as const;

@ApiTags('oauth')
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Public()
  @Get('authorize')
  @ApiExcludeEndpoint() // a browser's redirect, not an API call; documented in docs/api.md
  async authorize(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const outcome = await this.oauth.authorize(query);
    res.setHeader('cache-control', 'no-store');
    if ('redirect' in outcome) {
      res.status(302).location(outcome.redirect).end();
    } else {
      res.status(outcome.error.status).json({ error: outcome.error.error, error_description: outcome.error.description });
    }
  }

  @Public()
  @Post('token')
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody(FORM)
  @ApiOkResponse({
    description:
      'RFC 6749 token endpoint: grant_type=authorization_code (code, redirect_uri, client_id, code_verifier) or ' +
      'grant_type=refresh_token (refresh_token, client_id). Answers { access_token, token_type, expires_in, refresh_token, scope }; ' +
      'errors are { error, error_description } (400, or 401 invalid_client)',
  })
  async token(@Body() body: unknown, @Headers('user-agent') userAgent: string | undefined, @Res() res: Response): Promise<void> {
    await answerOAuth(res, async () => res.status(200).json(await this.oauth.token(record(body), userAgent)));
  }

  @Public()
  @Post('revoke')
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody(FORM)
  @ApiOkResponse({ description: 'RFC 7009: token (a refresh or access token) and client_id; ends its grant. 200 for an unknown token too' })
  async revoke(@Body() body: unknown, @Res() res: Response): Promise<void> {
    await answerOAuth(res, async () => {
      await this.oauth.revokeToken(record(body));
      res.status(200).end();
    });
  }
}

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

/** Token answers are never cached (RFC 6749 5.1); OAuth errors are RFC 6749 5.2's documents. */
async function answerOAuth(res: Response, work: () => Promise<unknown>): Promise<void> {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('pragma', 'no-cache');
  try {
    await work();
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    res.status(error.status).json({ error: error.error, error_description: error.description });
  }
}
