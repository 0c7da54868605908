import { describe, expect, it } from 'vitest';
import { nothingFits, type GateCase } from './example-gate';
import { EXAMPLES } from './example-requests';

/** An answer whose five judged tools all have examples, the best of them scoring `supported`. */
const judged = (nothing: number, supported: number, known = 5): GateCase => ({
  confidence: 0.9,
  score: supported,
  share: 0.5,
  judged: 5,
  known,
  sources: true,
  nothing,
  supported,
});

describe('nothing fits', () => {
  const at = EXAMPLES.nothing.score;

  it('withholds an answer, however confident, when a request no tool serves reads closer than its tools', () => {
    expect(nothingFits(judged(at, at - 1))).toBe(true);
    expect(nothingFits(judged(at + 10, at + 9))).toBe(true);
  });

  it('gives it when an example of a judged tool scores as much, or the closest request scores under the threshold', () => {
    expect(nothingFits(judged(at + 10, at + 10))).toBe(false);
    expect(nothingFits(judged(at - 0.5, 0))).toBe(false);
  });

  it('stays out while a judged tool has no examples: it could be the one asked for', () => {
    expect(nothingFits(judged(at + 10, 0, 4))).toBe(false);
    expect(nothingFits({ ...judged(at + 10, 0), judged: 0, known: 0 })).toBe(false);
  });
});
