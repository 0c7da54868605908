import { describe, expect, it } from 'vitest';
import { reorderKnown } from './encoder-merge';
import { isKnownTool, toolDigest } from './known-tools';
import type { SearchHit } from './search-types';

const pool = (count: number): SearchHit[] =>
  Array.from({ length: count }, (_, at) => ({ index: at, name: `t${at}`, score: 10 - at, reason: 'bm25' as const }));

describe('reorderKnown', () => {
  it('moves the known tools among their own places; the others keep theirs, each place its score', () => {
    const hits = pool(6);
    // Known: 2, 3 and 5 (the others are not). The encoder ranks 3 first, then 2, then 5: by the
    // reciprocal-rank sums (2: 1/12 + 1/11, 3: 1/13 + 1/10, 5: 1/15 + 1/12) 3 takes 2's place.
    const cosine: Record<number, number> = { 2: 0.4, 3: 0.9, 5: 0.1 };
    const out = reorderKnown(
      hits,
      (index) => index === 2 || index === 3 || index === 5,
      (indexes) => indexes.map((index) => cosine[index] ?? 0),
    );
    expect(out?.map((hit) => hit.index)).toEqual([0, 1, 3, 2, 4, 5]);
    expect(out?.map((hit) => hit.score)).toEqual(hits.map((hit) => hit.score));
  });

  it('changes nothing with fewer than two known tools, without vectors, or when the order stays', () => {
    const hits = pool(5);
    const likes = (indexes: readonly number[]) => indexes.map((index) => 1 - index / 10);
    expect(reorderKnown(hits, (index) => index === 2, likes)).toBeUndefined();
    expect(
      reorderKnown(
        hits,
        () => true,
        () => undefined,
      ),
    ).toBeUndefined();
    expect(reorderKnown(hits, () => true, likes)).toBeUndefined();
  });

  it('gives no credit to a tool the encoder finds no nearer than orthogonal', () => {
    const hits = pool(3);
    // The lexical second and third are known; the encoder "prefers" the third, but at a negative cosine.
    const out = reorderKnown(
      hits,
      (index) => index > 0,
      (indexes) => indexes.map((index) => (index === 2 ? -0.1 : -0.5)),
    );
    expect(out).toBeUndefined();
  });
});

describe('known tools', () => {
  it('know a tool by its name and description, under any server, and not once its description changes', () => {
    const tool = { originalName: 'get_stories', description: 'x', label: 'a' };
    expect(toolDigest(tool)).toBe(toolDigest({ ...tool, label: 'b' } as typeof tool));
    expect(toolDigest(tool)).not.toBe(toolDigest({ ...tool, description: 'y' }));
    expect(isKnownTool({ originalName: 'no_such_tool_anywhere', description: 'Nothing the encoder saw.' })).toBe(false);
  });
});
