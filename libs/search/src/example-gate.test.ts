import { describe, expect, it } from 'vitest';
import { gateCase, nothingFits, NOTHING_WINDOW, type GateCase } from './example-gate';
import type { ExampleVoteList, ExampleVotes } from './example-requests';
import { EXAMPLES } from './example-requests';

/** An answer whose first ten tools all have examples (unless `windowKnown` is false), the best of them scoring `supported`. */
const judged = (nothing: number, supported: number, windowKnown = true, saysMore = true): GateCase => ({
  confidence: 0.9,
  score: supported,
  share: 0.5,
  judged: 5,
  known: 5,
  sources: true,
  nothing,
  supported,
  windowKnown,
  saysMore: () => saysMore,
});

describe('nothing fits', () => {
  const { score: at, over } = EXAMPLES.nothing;

  it('withholds an answer, however confident, when a request no tool serves reads clearly closer than its tools', () => {
    expect(nothingFits(judged(at, 0))).toBe(true);
    expect(nothingFits(judged(at + 10, (at + 10) / over - 1))).toBe(true);
  });

  it('gives it on a near tie, or when the closest request scores under the threshold', () => {
    expect(nothingFits(judged(at + 10, (at + 10) / over))).toBe(false);
    expect(nothingFits(judged(at + 10, at + 10))).toBe(false);
    expect(nothingFits(judged(at - 0.5, 0))).toBe(false);
  });

  it('gives it when the first ten tools have every word of the request', () => {
    expect(nothingFits(judged(at + 10, 0, true, false))).toBe(false);
  });

  it('stays out while a tool of the first ten has no examples: it could be the one asked for', () => {
    expect(nothingFits(judged(at + 10, 0, false))).toBe(false);
    expect(nothingFits({ ...judged(at + 10, 0), judged: 0, known: 0 })).toBe(false);
  });
});

describe('the case nothing fits judges', () => {
  const hits = Array.from({ length: 12 }, (_, index) => ({
    index,
    name: `tool${index}`,
    score: 12 - index,
    reason: 'bm25' as const,
  }));
  const votes = (entries: { index: number; score: number }[], floor = 0): ExampleVoteList =>
    Object.assign(
      entries.map((entry, place) => ({ ...entry, place, share: 0.5 })),
      { nothing: 20, floor },
    );
  const examplesWithout = (missing: number) =>
    ({ has: (index: number) => index !== missing, knowsSource: () => true }) as unknown as ExampleVotes;

  it('reads the first ten tools whatever the limit: one without examples among them keeps the rule out', () => {
    expect(gateCase(examplesWithout(-1), hits, votes([]), 0.9).windowKnown).toBe(true);
    expect(gateCase(examplesWithout(NOTHING_WINDOW - 1), hits, votes([]), 0.9).windowKnown).toBe(false);
    // Past the tenth place it no longer counts.
    expect(gateCase(examplesWithout(NOTHING_WINDOW), hits, votes([]), 0.9).windowKnown).toBe(true);
  });

  it("takes the best vote of those ten tools as their support, or the votes' floor", () => {
    expect(
      gateCase(
        examplesWithout(-1),
        hits,
        votes([
          { index: 7, score: 18 },
          { index: 11, score: 30 },
        ]),
        0.9,
      ).supported,
    ).toBe(18);
    expect(gateCase(examplesWithout(-1), hits, votes([{ index: 11, score: 30 }], 9), 0.9).supported).toBe(9);
  });
});
