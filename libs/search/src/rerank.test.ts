import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { Bm25Index } from './bm25-index';
import { Reranker } from './rerank';
import { toSearchDocument } from './search-document';

// 120 tools share "record" (postings far longer than the pool: searched per candidate); every
// tenth also says "invoice" (short postings: streamed).
const tools = Array.from({ length: 120 }, (_, at) =>
  tool(`tool_${at}`, at % 10 === 0 ? `Store an invoice record number ${at}` : `Store a record number ${at}`),
);
const index = new Bm25Index(
  buildSessionTools([toolset('books', tools)], defaultToolSearchConfig()).deferred.map((t) => toSearchDocument(t)),
);
const termIds = ['record', 'invoic'].map((term) => index.termId(term) as number);

describe('Reranker', () => {
  it("finds each candidate's postings in long and short posting lists alike", () => {
    expect(termIds.map((id) => index.documentFrequency(id))).toEqual([120, 12]);
    const reranker = new Reranker(index, 0, 1);
    const candidates = Int32Array.from([3, 40, 20, 77]);
    const boosts = Float64Array.from([0, 0.5, 0, 0]);
    const weights = [1, 0.7];
    const picked = reranker.rerank(candidates, candidates.length, boosts, termIds, weights, 4);
    expect(picked).toBe(4);
    const expected = [...candidates]
      .map((id, c) => {
        let sum = 0;
        termIds.forEach((termId, t) => (sum += (weights[t] as number) * index.contribution(termId, id)));
        return { id, score: sum + (boosts[c] as number) };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
    expect([...reranker.ids.subarray(0, picked)]).toEqual(expected.map((e) => e.id));
    expect([...reranker.scores.subarray(0, picked)]).toEqual(expected.map((e) => e.score));
    for (let pick = 0; pick < picked; pick += 1)
      termIds.forEach((termId, t) =>
        expect(reranker.contributes(t, pick)).toBe(index.contribution(termId, reranker.ids[pick] as number) > 0),
      );
  });

  it('reuses its scratch from call to call: a smaller second call is not coloured by the first', () => {
    const reranker = new Reranker(index, 0, 0.8);
    reranker.rerank(Int32Array.from([10, 20, 30, 1, 2]), 5, new Float64Array(5), termIds, [1, 1], 5);
    const picked = reranker.rerank(Int32Array.from([5, 50]), 2, new Float64Array(2), termIds.slice(1), [1], 2);
    expect(picked).toBe(2);
    expect([...reranker.ids.subarray(0, 2)]).toEqual([50, 5]);
    expect(reranker.scores[1]).toBe(0); // tool_5 has no "invoice"
  });
});
