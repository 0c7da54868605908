/** One evaluated query: the ranked names returned and the gold, as groups of acceptable ids. */
export interface EvalCase {
  readonly ranked: readonly string[];
  /**
   * Each entry is one gold tool, given as the ids that count for it (any one of them is a hit).
   * Empty: no tool is right, and the right answer is to return nothing (abstention).
   */
  readonly gold: readonly (readonly string[])[];
}

export interface EvalReport {
  readonly queries: number;
  /** Mean share of a query's gold tools found in the top k, per k. */
  readonly recall: Record<string, number>;
  /** Share of queries with at least one gold tool in the top 5. */
  readonly hit5: number;
  /** Mean reciprocal rank of the first gold tool (0 when none is found). */
  readonly mrr: number;
  /** Mean nDCG@10 with binary relevance. */
  readonly ndcg10: number;
  /** Share of answerable queries that returned nothing. */
  readonly empty_rate: number;
  /** Share of unanswerable queries that returned nothing (null when there were none). */
  readonly abstain_accuracy: number | null;
  readonly abstain_queries: number;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Retrieval metrics over a set of queries. Gold lists are deduplicated per tool. */
export function evaluate(cases: readonly EvalCase[], ks: readonly number[]): EvalReport {
  const answerable = cases.filter((c) => c.gold.length > 0);
  const unanswerable = cases.filter((c) => c.gold.length === 0);
  const recall: Record<string, number> = {};
  for (const k of ks) {
    let sum = 0;
    for (const c of answerable) {
      const top = new Set(c.ranked.slice(0, k));
      sum += c.gold.filter((ids) => ids.some((id) => top.has(id))).length / c.gold.length;
    }
    recall[String(k)] = round(sum / Math.max(answerable.length, 1));
  }
  let hit5 = 0;
  let mrr = 0;
  let ndcg = 0;
  let empty = 0;
  for (const c of answerable) {
    const goldIds = new Set(c.gold.flat());
    const rank = c.ranked.findIndex((name) => goldIds.has(name));
    if (rank >= 0 && rank < 5) hit5 += 1;
    if (rank >= 0) mrr += 1 / (rank + 1);
    if (c.ranked.length === 0) empty += 1;
    // Each gold tool counts once, at the first rank where one of its ids appears.
    const credited = new Set<number>();
    let dcg = 0;
    c.ranked.slice(0, 10).forEach((name, position) => {
      const goldIndex = c.gold.findIndex((ids, index) => !credited.has(index) && ids.includes(name));
      if (goldIndex >= 0) {
        credited.add(goldIndex);
        dcg += 1 / Math.log2(position + 2);
      }
    });
    let ideal = 0;
    for (let position = 0; position < Math.min(10, c.gold.length); position += 1) ideal += 1 / Math.log2(position + 2);
    ndcg += ideal > 0 ? dcg / ideal : 0;
  }
  const n = Math.max(answerable.length, 1);
  return {
    queries: cases.length,
    recall,
    hit5: round(hit5 / n),
    mrr: round(mrr / n),
    ndcg10: round(ndcg / n),
    empty_rate: round(empty / n),
    abstain_accuracy:
      unanswerable.length > 0
        ? round(unanswerable.filter((c) => c.ranked.length === 0).length / unanswerable.length)
        : null,
    abstain_queries: unanswerable.length,
  };
}
