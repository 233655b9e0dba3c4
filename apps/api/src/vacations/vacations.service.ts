import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { currentPlayer, dealIndex } from '@mizerka/rules';
import type { AuthenticatedPlayer } from '../auth/authenticated-player.js';
import { badInput, conflict } from '../common/errors.js';
import { queryRows } from '../common/sql-query.js';
import type { AppConfig } from '../config/app-config.js';
import { GameLogBus, GameStore, pausedClock, projectCommit, resumedClock, type GameCommit } from '../games/index.js';
import { JobQueue } from '../outbox/job-queue.js';
import { removeJobsSql, setGameJobsSql } from '../outbox/job-queue.sql.js';
import { Outbox } from '../outbox/outbox.js';
import { OutboxConsumer, type OutboxItem } from '../outbox/outbox-consumer.js';
import { PlayerEventsService } from '../player-events/player-events.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { daysCounted, latestUntil, yearOf } from './vacation-days.js';
import type { VacationGame, VacationPreview, VacationStatus } from './models/vacation.model.js';
import {
  activeGamesSql,
  awayGamesSql,
  awayPlayersSql,
  daysUsedSql,
  endVacationSql,
  insertVacationSql,
  lastVacationSql,
  lockPlayerSql,
  unannouncedGamesSql,
  type VacationRow,
} from './vacations.sql.js';

export const VACATION_END_TASK = 'player.vacationEnd';
/** The time vacations are reckoned by: a seam for tests (a fake clock); the wall clock by default. */
export const VACATION_CLOCK = Symbol('VACATION_CLOCK');
export type VacationClock = () => Date;

/** The most games a status or preview lists. */
const GAMES_LISTED = 500;
/** Tries of one game's vacation entry against moves that commit first. */
const MARK_TRIES = 8;

/**
 * Vacations. A player away has their clocks stopped in every timed game of theirs that allows it
 * (games.vacation_allowed; a tournament's games will not): the turn that is theirs when they leave
 * keeps the time it had left, and gets it back on return (deadline = the old one + the time away,
 * its clock job re-keyed through the outbox's turnBegan); a turn that becomes theirs while away
 * begins with its clock stopped (the move path reads who is away) and gets its full time on
 * return. Other seats' clocks are untouched. Each game hears it in its log ('away' with the
 * return date, 'back'), a game write like any other (game-commit.ts, 'presence'), so a move
 * decided before it is decided again.
 *
 * A vacation always has an end: `until`, at the latest where the year's allowance runs out. A
 * keyed job (`vacation:<player>`) ends it there by itself; ending it earlier counts only the days
 * begun. Starting while away, or ending while here, answers the same status and changes nothing
 * (and finishes the announcements a crash may have cut short).
 */
@Injectable()
export class VacationsService implements OnModuleInit {
  private readonly log = new Logger('Vacations');
  private readonly allowanceDays: number;
  private readonly now: VacationClock;

  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: JobQueue,
    private readonly store: GameStore,
    private readonly bus: GameLogBus,
    private readonly outbox: Outbox,
    private readonly feed: PlayerEventsService,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(VACATION_CLOCK) clock: VacationClock | null = null,
  ) {
    this.allowanceDays = config.get('vacations', { infer: true }).allowanceDays;
    this.now = clock ?? (() => new Date());
  }

  onModuleInit(): void {
    this.jobs.task(VACATION_END_TASK, (payload) => this.endedByItself(payload as { playerId: string; vacationId: string }));
  }

  /** The caller's vacation now: away or not, the year's allowance, and the games a vacation would leave running. */
  async status(player: AuthenticatedPlayer): Promise<VacationStatus> {
    const [last] = await queryRows(this.prisma, lastVacationSql(player.id));
    return this.statusOf(player.id, last ?? null);
  }

  /** What starting a vacation until `until` (default: as long as the allowance lasts) would do; changes nothing. */
  async preview(player: AuthenticatedPlayer, until: Date | null): Promise<VacationPreview> {
    const now = this.now();
    const status = await this.status(player);
    const games = await this.games(player.id);
    const latest = latestUntil(now, status.daysLeft);
    const end = status.away ? status.until! : (until ?? latest);
    return {
      ...status,
      until: end,
      allowed: status.away || (status.daysLeft > 0 && end > now && end <= latest),
      days: status.away ? daysCounted(status.startedAt!, end) : daysCounted(now, end),
      stopped: games.filter((g) => g.timed && g.vacationAllowed).map(gameOf),
    };
  }

  /**
   * Starts the caller's vacation until `until` (default: as long as the allowance lasts). Already
   * away: the same status, nothing counted again. No allowance left, or an `until` beyond it:
   * CONFLICT with the days left.
   */
  async start(player: AuthenticatedPlayer, until: Date | null): Promise<VacationStatus> {
    const now = this.now();
    if (until !== null && until.getTime() <= now.getTime()) throw badInput('until must be in the future', { field: 'until' });
    const vacation = await this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(player.id));
      const [last] = await queryRows(tx, lastVacationSql(player.id));
      if (last && last.ended_at === null) return last;
      const daysLeft = await this.daysLeft(tx, player.id, now);
      if (daysLeft <= 0) throw conflict(`No vacation left this year (${this.allowanceDays} days a year)`, { daysLeft: 0 });
      const latest = latestUntil(now, daysLeft);
      if (until !== null && until.getTime() > latest.getTime()) {
        throw conflict(`Only ${daysLeft} days of vacation are left this year: until ${latest.toISOString()} at the latest`, { daysLeft, field: 'until' });
      }
      const [row] = await queryRows(tx, insertVacationSql(player.id, now, until ?? latest));
      await tx.$executeRaw(setGameJobsSql([{ task: VACATION_END_TASK, key: jobKey(player.id), payload: { playerId: player.id, vacationId: row.id }, runAt: row.until }]));
      return row;
    });
    await this.announce(player.id, vacation);
    return this.statusOf(player.id, vacation);
  }

  /** Ends the caller's vacation now. Not away: the same status, nothing changed. */
  async end(player: AuthenticatedPlayer): Promise<VacationStatus> {
    return this.statusOf(player.id, await this.close(player.id, null));
  }

  /**
   * A turn began (outbox): one of a player who is away but whose clock runs (a game begun while
   * they were away, or a move that read them as here just before they left) is stopped, and the
   * table hears why.
   */
  @OutboxConsumer('turnBegan', 'vacations')
  async turnsBegan(items: OutboxItem<'turnBegan'>[]): Promise<void> {
    const timed = items.filter((i) => i.entry.deadline !== null);
    if (timed.length === 0) return;
    const away = new Map((await queryRows(this.prisma, awayPlayersSql([...new Set(timed.map((i) => i.entry.playerId))]))).map((r) => [r.player_id, r]));
    for (const item of timed) {
      const vacation = away.get(item.entry.playerId);
      // Stopped as of the vacation's start (or the turn's, if later): not as of when this job ran.
      if (vacation) await this.mark(item.gameId, item.entry.playerId, 'away', vacation.started_at, vacation.until, 'system', true);
    }
  }

  /** The keyed job at `until`: the vacation ends by itself, there, if it is still the one open. */
  private async endedByItself({ playerId, vacationId }: { playerId: string; vacationId: string }): Promise<void> {
    await this.close(playerId, vacationId);
  }

  /** Ends the open vacation (`only` it, when given) and comes back to every game; answers the last vacation. */
  private async close(playerId: string, only: string | null): Promise<VacationRow | null> {
    const now = this.now();
    const { vacation, ended } = await this.prisma.$transaction(async (tx) => {
      await queryRows(tx, lockPlayerSql(playerId));
      const [last] = await queryRows(tx, lastVacationSql(playerId));
      if (!last || last.ended_at !== null || (only !== null && last.id !== only)) return { vacation: last ?? null, ended: false };
      // At `until` at the latest: a job run late (no server up then) ends it where it was due.
      const at = now.getTime() < last.until.getTime() ? now : last.until;
      const [row] = await queryRows(tx, endVacationSql(last.id, at, daysCounted(last.started_at, at)));
      if (only === null) await tx.$executeRaw(removeJobsSql([jobKey(playerId)]));
      return { vacation: row, ended: true };
    });
    // Also when it had ended before: a return a crash cut short is finished here.
    if (vacation?.ended_at) {
      const games = await queryRows(this.prisma, awayGamesSql(playerId));
      const actor = ended && only !== null ? 'system' : 'player';
      for (const g of games) await this.mark(g.id, playerId, 'back', vacation.ended_at, null, actor, false);
    }
    return vacation;
  }

  /** The vacation's 'away' to every game of the player's that allows it and has not heard it yet. */
  private async announce(playerId: string, vacation: VacationRow): Promise<void> {
    const games = await queryRows(this.prisma, unannouncedGamesSql(playerId, vacation.started_at));
    for (const g of games) await this.mark(g.id, playerId, 'away', vacation.started_at, vacation.until, 'player', false);
  }

  /**
   * One game's vacation entry, with the clock of the player's turn stopped ('away') or running
   * again ('back') as of `at`; tried again on a fresh read when a move commits first. With
   * `onlyIfRunning`, written only where the player's turn has a running clock.
   */
  private async mark(
    gameId: string,
    playerId: string,
    kind: 'away' | 'back',
    at: Date,
    until: Date | null,
    actor: 'player' | 'system',
    onlyIfRunning: boolean,
  ): Promise<void> {
    for (let attempt = 0; attempt < MARK_TRIES; attempt++) {
      const game = await this.store.read(gameId, playerId, null);
      if (!game || game.status !== 'active' || game.seat === null) return;
      const seat = game.seat;
      // Leaving concerns only a game that lets a vacation stop its clock (its away flag says both).
      if (kind === 'away' && !game.away?.[seat]) return;
      const theirTurn = currentPlayer(game.state) === seat;
      if (onlyIfRunning && !(theirTurn && game.clock?.deadline)) return;
      let clock = game.clock;
      if (clock && theirTurn) {
        // A turn already out of time is not saved by leaving: its clock job acts on it.
        // The clock stopped when the player left, or when their turn began if that was later.
        const stoppedAt = clock.turnStartedAt && clock.turnStartedAt.getTime() > at.getTime() ? clock.turnStartedAt : at;
        if (kind === 'away' && clock.deadline && clock.deadline.getTime() > stoppedAt.getTime()) clock = pausedClock(clock, stoppedAt);
        if (kind === 'back') clock = resumedClock(clock, at);
      }
      const commit: GameCommit = {
        type: 'presence',
        gameId,
        readVersion: game.version,
        entry: {
          seq: game.version + 1,
          kind,
          dealIndex: dealIndex(game.state),
          seat,
          playerId,
          actor,
          cause: actor === 'system' ? (kind === 'away' ? 'vacation' : 'vacation-over') : null,
          move: kind === 'away' && until ? { until: until.toISOString() } : null,
          events: [],
          idempotencyKey: null,
          requestHash: null,
          response: null,
        },
        state: game.state,
        seats: game.seats,
        clock,
        now: at,
      };
      const written = projectCommit(commit);
      const tx = await this.store.write(written);
      if (tx === null) continue; // a move got in first: decide again on the game as it is now
      this.bus.published(gameId, written.version);
      this.feed.published(written.feed, tx);
      if (written.outbox) this.outbox.committed({ gameId, seq: written.outbox.seq, entries: written.outbox.entries });
      return;
    }
    this.log.warn(`game ${gameId}: the ${kind} entry of player ${playerId} lost ${MARK_TRIES} races to moves; the next start or end finishes it`);
  }

  private async daysLeft(db: Parameters<typeof queryRows>[0], playerId: string, now: Date): Promise<number> {
    const { from, to } = yearOf(now);
    const [{ days }] = await queryRows(db, daysUsedSql(playerId, from, to, now));
    return Math.max(0, this.allowanceDays - days);
  }

  private async games(playerId: string) {
    return (await queryRows(this.prisma, activeGamesSql(playerId, GAMES_LISTED))).map((g) => ({
      gameId: g.id,
      preset: g.preset,
      deadline: g.deadline,
      timed: g.timed,
      vacationAllowed: g.vacation_allowed,
    }));
  }

  private async statusOf(playerId: string, last: VacationRow | null): Promise<VacationStatus> {
    const now = this.now();
    const away = last !== null && last.ended_at === null;
    const daysLeft = await this.daysLeft(this.prisma, playerId, now);
    const games = await this.games(playerId);
    return {
      away,
      startedAt: last?.started_at ?? null,
      until: last?.until ?? null,
      endedAt: last?.ended_at ?? null,
      allowanceDays: this.allowanceDays,
      daysLeft,
      year: yearOf(now).year,
      keptRunning: games.filter((g) => g.timed && !g.vacationAllowed).map(gameOf),
    };
  }
}

function gameOf(g: { gameId: string; preset: string; deadline: Date | null }): VacationGame {
  return { gameId: g.gameId, preset: g.preset, deadline: g.deadline };
}

function jobKey(playerId: string): string {
  return `vacation:${playerId}`;
}
