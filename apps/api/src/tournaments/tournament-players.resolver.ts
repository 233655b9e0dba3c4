import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/public.decorator.js';
import { Player } from '../players/models/player.model.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { TournamentView } from './models/tournament.model.js';

/**
 * The entrants' names: standings, players and tables name players by id, and a page showing them
 * needs their names, in one query per tournament rather than one per line.
 */
@Resolver(() => TournamentView)
export class TournamentPlayersResolver {
  constructor(private readonly prisma: PrismaService) {}

  @Public()
  @ResolveField(() => [Player], { description: 'The entrants (withdrawn ones too) as players, for their names; in no set order' })
  entrantPlayers(@Parent() tournament: TournamentView): Promise<Player[]> {
    const ids = tournament.players.map((p) => p.playerId);
    if (ids.length === 0) return Promise.resolve([]);
    return this.prisma.player.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, kind: true, botLevel: true, createdAt: true } });
  }
}
