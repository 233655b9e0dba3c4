import { Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/public.decorator.js';
import { serverInfo } from './server-info.controller.js';
import { ServerInfo } from './models/server-info.model.js';

@Resolver(() => ServerInfo)
export class ServerInfoResolver {
  @Public()
  @Query(() => ServerInfo, { description: "The server's release and the API's major version" })
  serverInfo(): ServerInfo {
    return serverInfo();
  }
}
