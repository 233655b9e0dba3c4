import type { BotLevel } from '@mizerka/bots';
import { queryRows } from '../common/sql-query.js';
import type { Prisma } from '../generated/prisma/client.js';
import { freeServerBotSql, newServerBotSql } from './bots.sql.js';

/** New bot players tried by one pick before giving up (a table has at most 3 other seats). */
const MAX_NEW_NAMES = 8;

/**
 * The server's player for a bot of `level` that is not among `seated`: bot-strong, bot-strong-2,
 * …, made on first need. Such a player has no token, so nobody can log in as it; its name is kept
 * from registration (SERVER_BOT_NAME). A name taken meanwhile (by a concurrent pick) is skipped.
 */
export async function pickServerBot(tx: Prisma.TransactionClient, level: BotLevel, seated: readonly string[]): Promise<string> {
  const free = await queryRows(tx, freeServerBotSql(level, [...seated]));
  if (free[0]) return free[0].id;
  const count = await tx.player.count({ where: { kind: 'bot', botLevel: level } });
  for (let n = count + 1; n <= count + MAX_NEW_NAMES; n++) {
    const name = n === 1 ? `bot-${level}` : `bot-${level}-${n}`;
    const made = await queryRows(tx, newServerBotSql(name, level));
    if (made[0]) return made[0].id;
  }
  throw new Error(`no free name for another ${level} bot`);
}
