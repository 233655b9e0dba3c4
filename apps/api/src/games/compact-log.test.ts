// The compact log's encoding on its own (no database): what format 2 writes short, what it keeps as
// JSON, and that a format 1 log (written before) still reads the same. compaction.test.ts checks
// every read of whole games before and after compaction against a real database.
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPACT_FORMAT, encodeLog, recordMoves, recordMoveTexts, type FullLogRow } from './compact-log.js';
import { buildRecord, buildRecordText } from './record.js';

let seq = 0;
const at = Date.UTC(2026, 11, 3, 12);
function row(kind: string, seat: number | null, move: unknown): FullLogRow {
  seq++;
  return {
    seq,
    kind,
    dealIndex: 0,
    seat,
    playerId: null,
    actor: seat === null ? 'system' : 'player',
    cause: null,
    events: [],
    createdAt: new Date(at + seq * 6_119),
    deadline: null,
    move,
    idempotencyKey: null,
    requestHash: null,
    response: null,
  };
}

function log(): FullLogRow[] {
  seq = 0;
  return [
    row('deal', null, null),
    row('contract', 1, { seat: 1, contract: 'hearts' }),
    row('exchange', 1, { seat: 1, exchange: ['2C', 'TD', 'KH', 'AS'] }),
    row('exchange', 2, { seat: 2, exchange: [] }),
    row('play', 1, { seat: 1, play: 'AS' }),
    row('deal', null, null),
    row('bid', 0, { bid: 'misere', seat: 0 }),
    row('discard', 0, { seat: 0, discard: ['7C', '8D'] }),
    row('trump', 0, { seat: 0, trump: 'clubs' }),
    // Shapes format 2 has no short form for: kept as their JSON.
    row('bid', 2, { seat: 1, bid: 'pass' }), // not the entry's seat
    row('discard', 2, { seat: 2, discard: ['7C', 'XX'] }), // not a card
    row('contract', 2, { seat: 2, contract: 'misere', extra: 1 }),
    row('away', 2, { seat: 2, away: { until: '2026-12-10T00:00:00.000Z' } }),
  ];
}

const expectedMoves = (rows: FullLogRow[]) => {
  let deal = -1;
  return rows.flatMap((r) => {
    if (r.kind === 'deal') deal++;
    return ['deal', 'end', 'away', 'back'].includes(r.kind) ? [] : [{ dealIndex: deal, move: r.move }];
  });
};

/** A log as format 1 wrote it: every move but a play as varint length + JSON (no form byte). */
function formatOne(rows: FullLogRow[]): Buffer {
  const bytes: number[] = [];
  const varint = (n: number) => {
    for (; n >= 0x80; n = Math.floor(n / 0x80)) bytes.push((n % 0x80) | 0x80);
    bytes.push(n);
  };
  const kinds = ['deal', 'contract', 'exchange', 'bid', 'discard', 'trump', 'play', 'end', 'away', 'back'];
  varint(rows.length);
  varint(rows[0].createdAt.getTime());
  let last = rows[0].createdAt.getTime();
  for (const r of rows) {
    bytes.push(kinds.indexOf(r.kind) | ((r.actor === 'system' ? 1 : 0) << 4), r.seat === null ? 0 : r.seat + 1);
    varint((r.createdAt.getTime() - last) * 2);
    last = r.createdAt.getTime();
    if (r.kind === 'play') bytes.push(51); // AS
    else if (r.kind !== 'deal') {
      const text = Buffer.from(JSON.stringify(r.move));
      varint(text.length);
      bytes.push(...text);
    }
  }
  return Buffer.concat([Buffer.from([1, 1]), deflateRawSync(Buffer.from(bytes))]);
}

describe('the compact log', () => {
  it('writes format 2: card lists a byte a card, a name as its text, any other move as its JSON, and reads each back', () => {
    const rows = log();
    const stored = encodeLog(rows);
    expect(stored[0]).toBe(COMPACT_FORMAT);
    expect(COMPACT_FORMAT).toBe(2);
    // Keys in jsonb's order, as the rows read back from their jsonb column.
    expect(JSON.stringify(recordMoves(stored))).toBe(
      JSON.stringify(
        expectedMoves(rows).map(({ dealIndex, move }) => ({
          dealIndex,
          move: Object.fromEntries(Object.entries(move as object).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1))),
        })),
      ),
    );
  });

  it('takes less room than format 1 for the moves that name cards, compressed with brotli', () => {
    seq = 0;
    const rows = [row('deal', null, null)];
    for (let i = 0; i < 30; i++) rows.push(row('exchange', i % 3, { seat: i % 3, exchange: ['2C', '5D', '9H', 'QS', 'AD'].slice(0, 1 + (i % 5)) }));
    const stored = encodeLog(rows);
    expect(stored.length).toBeLessThan(formatOne(rows).length * 0.6);
    expect(stored[1]).toBe(2); // brotli (format 1's logs were deflated: byte 1 = 1, still read below)
    expect(recordMoves(stored)).toEqual(expectedMoves(rows));
  });

  it('still reads a format 1 log (compacted before format 2) as the same moves', () => {
    const rows = log()
      .filter((r) => r.kind !== 'play')
      .map((r, i) => ({ ...r, seq: i + 1 }));
    const one = formatOne(rows);
    expect(one[0]).toBe(1);
    expect(recordMoves(one)).toEqual(recordMoves(encodeLog(rows)));
    expect(recordMoves(one)).toEqual(expectedMoves(rows));
  });

  it("writes a record's text from the log (the export's way) as JSON.stringify writes the record built from its moves", () => {
    const rows = log();
    const game = {
      preset: 'short',
      options: {},
      firstDealer: 2,
      endSeat: 1,
      endReason: 'resigned',
      players: ['Ala', 'Ola "the bot"', 'Ela'],
      bots: [null, 'basic', null],
      deals: [
        { seed: '0123456789abcdef0123456789abcdef', deck: null },
        { seed: 'fedcba9876543210fedcba9876543210', deck: null },
      ],
    };
    for (const stored of [encodeLog(rows), formatOne(rows.filter((r) => r.kind !== 'play').map((r, i) => ({ ...r, seq: i + 1 })))]) {
      const built = JSON.stringify(buildRecord({ ...game, moves: recordMoves(stored) }));
      expect(buildRecordText(game, recordMoveTexts(stored))).toBe(built);
      // Without an end, bots or moves in a deal.
      const plain = { ...game, endSeat: null, endReason: null, bots: [null, null, null], deals: [...game.deals, { seed: '00000000000000000000000000000000', deck: null }] };
      expect(buildRecordText(plain, recordMoveTexts(stored))).toBe(JSON.stringify(buildRecord({ ...plain, moves: recordMoves(stored) })));
    }
  });

  it('refuses a format it does not know', () => {
    const stored = Buffer.from(encodeLog(log()));
    stored[0] = 9;
    expect(() => recordMoves(stored)).toThrow(/unknown format 9/);
  });
});
