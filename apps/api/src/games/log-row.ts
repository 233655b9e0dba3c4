/** A stored log entry, with everyone's cards: it never leaves this folder unredacted. */
export interface LogRow {
  seq: number;
  kind: string;
  dealIndex: number;
  seat: number | null;
  actor: string;
  cause: string | null;
  events: unknown;
  createdAt: Date;
  deadline: Date | null;
  /** The move as recorded (it may name hidden cards: a discard); read only for an 'away' entry's `until`. */
  move?: unknown;
}

export const LOG_ROW = {
  seq: true,
  kind: true,
  dealIndex: true,
  seat: true,
  actor: true,
  cause: true,
  events: true,
  createdAt: true,
  deadline: true,
  // Read for an 'away' entry's `until` only (logEntryView): a move's own is never shown from here.
  move: true,
} as const;
