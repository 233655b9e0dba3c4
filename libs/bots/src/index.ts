/** libs/bots: computer players for Mizerka, from a seat's own view only. Everything public is exported here. */
export { BOT_LEVELS, type Bot, type BotInput, type BotLevel, type BotOptions } from './bot.js';
export { randomMove } from './random-bot.js';
export { basicMove } from './basic-bot.js';
export { STRONG_SAMPLES, strongMove } from './strong-bot.js';
export { BOTS, botMove, illegal, type BotAnswer } from './bot-move.js';
