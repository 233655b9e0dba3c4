/** The most event-log entries one page returns. */
export const EVENTS_PAGE_MAX = 1000;
