import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { API_VERSION, SERVER_VERSION } from '../common/server-version.js';
import { ServerInfo } from './models/server-info.model.js';

export const serverInfo = (): ServerInfo => ({ version: SERVER_VERSION, apiVersion: API_VERSION });

@ApiTags('health')
@Public()
@Controller('server-info')
export class ServerInfoController {
  @Get()
  @ApiOkResponse({ type: ServerInfo, description: "The server's release and the API's major version" })
  serverInfo(): ServerInfo {
    return serverInfo();
  }
}
