/** The notifications' clock: quiet hours, digests and presence are weighed by it (tests pass a fake one). */
export interface NoticeClock {
  now(): number;
}

export const NOTICE_CLOCK = Symbol('NOTICE_CLOCK');

export const systemClock: NoticeClock = { now: () => Date.now() };
