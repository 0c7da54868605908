import { EXAMPLES, type ExampleVote } from './example-requests';
import type { SearchHit } from './search-types';

/**
 * The answer's ranking fused with the examples' votes by reciprocal rank, among the tools that have
 * examples (`has`): each counts 1 / (`rankConstant` + its place in `ranked`) plus `weight` /
 * (`rankConstant` + its vote's place), and they fill the places such tools held, best first; a tool
 * only the examples found takes the place of one that fell out. Tools without examples (a tenant's
 * own, say) keep their places: no vote can speak for them, so none may push them down. Each place
 * keeps its score, so the scores still fall down the list (usage boosts re-order by score); tools
 * added after the ranking's end score just under its last. A tool only the examples found is marked
 * `reason: 'examples'`. Undefined when there is no vote or the order does not change.
 */
export function fuseVotes(
  ranked: readonly SearchHit[],
  votes: readonly ExampleVote[],
  name: (index: number) => string,
  limit: number,
  has: (index: number) => boolean,
): SearchHit[] | undefined {
  if (votes.length === 0 || ranked.length === 0) return undefined;
  const share = (place: number) => 1 / (EXAMPLES.rankConstant + place);
  const fused = new Map<number, { value: number; hit: SearchHit | undefined; place: number }>();
  ranked.forEach((hit, place) => {
    if (has(hit.index)) fused.set(hit.index, { value: share(place), hit, place });
  });
  for (const { index, place } of votes) {
    const value = EXAMPLES.weight * share(place);
    const seen = fused.get(index);
    if (seen === undefined) fused.set(index, { value, hit: undefined, place: ranked.length + place });
    else seen.value += value;
  }
  // Ties go to the answer's order, then to the votes' order, then to the lower position.
  const ordered = [...fused].sort((a, b) => b[1].value - a[1].value || a[1].place - b[1].place || a[0] - b[0]);
  const out: SearchHit[] = [];
  const take = (at: number, score: number) => {
    const [index, { hit }] = ordered[at] as (typeof ordered)[number];
    out.push({ index, name: hit?.name ?? name(index), score, reason: hit?.reason ?? 'examples' });
  };
  let next = 0;
  for (let place = 0; place < ranked.length && out.length < limit; place += 1) {
    const held = ranked[place] as SearchHit;
    if (has(held.index)) take(next++, held.score);
    else out.push(held);
  }
  // Places after the ranking's end, for what is left, each scoring just under the one before.
  for (; next < ordered.length && out.length < limit; next += 1)
    take(next, (out[out.length - 1]?.score ?? 1) * (1 - 1e-6));
  if (out.length === Math.min(limit, ranked.length) && out.every((hit, place) => ranked[place]?.index === hit.index))
    return undefined;
  return out;
}
