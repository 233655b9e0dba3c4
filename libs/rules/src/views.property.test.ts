// Views never leak. After every deal and move of random games, for every seat and the spectator,
// no card name the viewer may not know appears anywhere in the JSON of view(state, viewer) or of
// eventView(event, viewer) for the events of that move. A viewer may know: its own hand (only the
// first six cards during the contract pause), its own discards and draws, the talon it took as
// declarer, and every card played publicly in this deal (plus the last trick of the previous
// deal, which a view may still show); the spectator only the public plays. The views also agree
// with docs/rules.md on whose turn it is, hand, tricks, exchange counts and totals.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { cardName, eventView, view } from './index.js';
import { arbGameSetup, BIDDING_PRESETS, CheckError, CONTRACT_PRESETS, cardNamesIn, pbt, PBT_TIMEOUT, playChecked } from '../test-kit/index.js';

describe('views and event views never name a card the viewer may not know', () => {
  it('contract family: first two deals, every seat and the spectator', () => {
    fc.assert(fc.property(arbGameSetup({ presets: CONTRACT_PRESETS }), (setup) => {
      playChecked(setup, { views: true }, {
        maxDeals: 2,
        onDeal: (d) => {
          // At the pause each seat sees exactly its first six cards and nothing of the 7th+.
          for (let s = 0; s < setup.rules.players; s++) {
            const v = view(d.after, s);
            if (v.phase !== 'contract' || v.hand === null || v.hand.length !== 6) {
              throw new CheckError(`seat ${s} at the pause: phase ${v.phase}, hand ${JSON.stringify(v.hand)}`);
            }
          }
        },
      });
    }), pbt(40));
  }, PBT_TIMEOUT);

  it('bidding family: random games to the end, the sitting-out dealer included', () => {
    fc.assert(fc.property(arbGameSetup({ presets: BIDDING_PRESETS }), (setup) => {
      playChecked(setup, { views: true }, { maxDeals: 40 });
    }), pbt(30));
  }, PBT_TIMEOUT);

  it('the scan is not vacuous: another seat\'s view does name cards this seat may not know', () => {
    fc.assert(fc.property(arbGameSetup(), (setup) => {
      let scanned = 0;
      playChecked(setup, {}, {
        maxDeals: 1,
        extra: (step, checker) => {
          if (step.moveIndex !== 6) return;
          const m = checker.model;
          const d = m.deal!;
          const [a, b] = d.active;
          const known = new Set([...m.known(a)].map(cardName));
          const leaked = cardNamesIn(JSON.stringify(view(step.before, b))).filter((c) => !known.has(c));
          if (leaked.length === 0) throw new CheckError(`scan of seat ${b}'s view against seat ${a}'s knowledge found nothing`);
          scanned += 1;
        },
      });
      if (scanned !== 1) throw new CheckError('no scan');
    }), pbt(30));
  }, PBT_TIMEOUT);

  it('a spectator never gets a hand; others see an exchange or discard only as a count', () => {
    fc.assert(fc.property(arbGameSetup(), (setup) => {
      playChecked(setup, {}, {
        maxDeals: 1,
        onStep: (s) => {
          if (view(s.after, null).hand !== null) throw new CheckError('spectator view has a hand');
          for (const e of s.events) {
            if (e.type === 'exchanged' || e.type === 'discarded' || e.type === 'talonTaken') {
              const text = JSON.stringify(eventView(e, null));
              if (cardNamesIn(text).length > 0) throw new CheckError(`spectator sees cards of ${e.type}: ${text}`);
              for (let other = 0; other < setup.rules.players; other++) {
                if (other === e.seat) continue;
                const ev = eventView(e, other);
                const t = JSON.stringify(ev);
                if (cardNamesIn(t).length > 0) throw new CheckError(`seat ${other} sees cards of seat ${e.seat}'s ${e.type}: ${t}`);
                // How many cards were exchanged is public (docs/rules.md); the README's shape is { type, seat, count }.
                if (e.type === 'exchanged' && (ev as { count?: unknown } | null)?.count !== e.discards.length) {
                  throw new CheckError(`seat ${other} should see how many cards seat ${e.seat} exchanged (${e.discards.length}): ${t}`);
                }
              }
            }
          }
        },
      });
    }), pbt(40));
  }, PBT_TIMEOUT);
});
