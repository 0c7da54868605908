import { describe, expect, it } from 'vitest';
import { evaluate } from './eval-metrics';

describe('evaluate', () => {
  it('computes recall@k, hit@5, MRR and nDCG@10 for concrete rankings', () => {
    const report = evaluate(
      [
        { ranked: ['a', 'x', 'b'], gold: [['a'], ['b']] },
        { ranked: ['y', 'z', 'c'], gold: [['c'], ['d']] },
      ],
      [1, 3],
    );
    expect(report.recall).toEqual({ '1': 0.25, '3': 0.75 });
    expect(report.hit5).toBe(1);
    expect(report.mrr).toBeCloseTo((1 + 1 / 3) / 2, 4);
    const ideal = 1 + 1 / Math.log2(3);
    expect(report.ndcg10).toBeCloseTo(((1 + 1 / Math.log2(4)) / ideal + 1 / Math.log2(4) / ideal) / 2, 4);
  });

  it('counts any id of a gold tool as a hit, once', () => {
    const report = evaluate([{ ranked: ['s2::t', 's1::t'], gold: [['s1::t', 's2::t']] }], [1, 2]);
    expect(report.recall).toEqual({ '1': 1, '2': 1 });
    expect(report.ndcg10).toBe(1);
  });

  it('scores abstention on queries without gold and empty results on the others', () => {
    const report = evaluate(
      [
        { ranked: [], gold: [] },
        { ranked: ['x'], gold: [] },
        { ranked: [], gold: [['a']] },
      ],
      [5],
    );
    expect(report.abstain_accuracy).toBe(0.5);
    expect(report.abstain_queries).toBe(2);
    expect(report.empty_rate).toBe(1);
  });
});
