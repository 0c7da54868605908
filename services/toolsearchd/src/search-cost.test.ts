import { describe, expect, it } from 'vitest';
import { encoderScanWeight } from './request-weights';
import { searchCharged } from './search-cost';

describe('searchCharged', () => {
  it("charges the encoder's scans a search made, at the catalog's size, and nothing for a search without one", () => {
    const engine = { encoderScans: 0, size: 6_685 };
    const charged: number[] = [];
    const result = searchCharged(
      engine,
      (weight) => charged.push(weight),
      () => {
        engine.encoderScans += 2; // two doubtful queries in one request
        return 'answer';
      },
    );
    expect(result).toBe('answer');
    expect(charged).toEqual([2 * encoderScanWeight(6_685)]);
    expect(encoderScanWeight(6_685)).toBe(4);
    searchCharged(
      engine,
      (weight) => charged.push(weight),
      () => 'confident',
    );
    expect(charged).toHaveLength(1);
    // Without a quota to charge, the search just runs.
    expect(searchCharged(engine, undefined, () => 'plain')).toBe('plain');
  });
});
